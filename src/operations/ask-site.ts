/** @module askSite: POST /api/v1/ask, the assistant (src/core/ask/answer.ts): answers quoted from the site. */
import { ASK_LIMITS, AskRequestSchema, AskResponseSchema } from '../contract/ask.ts';
import { askSite as ask } from '../core/ask/answer.ts';
import { defineOperation, RATE_HEADERS } from '../http/operation.ts';
import { badReadDoc, READ_429, tooLargeDoc } from './docs.ts';

export const askSite = defineOperation({
  id: 'askSite',
  method: 'POST',
  path: '/api/v1/ask',
  summary: 'Ask the site a question.',
  description:
    'Answers a question from the site itself: every sentence of `answer` is quoted from a section in `sources` ' +
    '(pricing arithmetic apart, which shows its working from the price list), and each source links to its section. ' +
    'When the site has no answer, `answered` is false and `handoff` offers a person; a request for a person, a demo, ' +
    'a call back or to leave a message sets `handoff` too. Send earlier turns in `conversation` for a follow-up; ' +
    'nothing is kept per visitor. Extractive and deterministic: no generative model.',
  tag: 'Content',
  serve: { function: 'v1/ask' },
  body: {
    schema: AskRequestSchema,
    maxBytes: ASK_LIMITS.bodyBytes,
    example: { question: 'Is there a free trial?' },
  },
  responses: {
    200: {
      description: 'The answer, its sources (best first) and a handoff when a person is the next step.',
      schema: AskResponseSchema,
      example: {
        question: 'Is there a free trial?',
        answered: true,
        answer: 'Yes. Starter and Growth come with a 30-day trial.',
        sources: [
          {
            slug: 'faq',
            title: 'Frequently asked questions',
            heading: 'Is there a free trial?',
            url: 'https://kartage.com.au/faq#is-there-a-free-trial:~:text=Starter%20and%20Growth%20come%20with%20a%2030%2Dday%20trial.',
            text: '### Is there a free trial?\n\nYes. Starter and Growth come with a 30-day trial.',
            role: 'answer',
          },
        ],
        handoff: null,
        mode: 'extractive',
        reason: 'answered',
      },
      headers: RATE_HEADERS,
    },
    400: badReadDoc(
      `The body is not JSON, \`question\` is missing, shorter than ${ASK_LIMITS.questionMin} or longer than ` +
        `${ASK_LIMITS.questionMax} characters, or \`conversation\` is not an array of at most ${ASK_LIMITS.turnsMax} turns.`,
      `question must be at most ${ASK_LIMITS.questionMax} characters`,
    ),
    413: tooLargeDoc(ASK_LIMITS.bodyBytes),
    429: READ_429,
  },
  meter: 'read',
  cache: 'none',
  cors: true,
  data: ['ask'],
  public: true,
  handler: ({ deps, body, client }) => {
    const content = deps.content;
    const answer = ask(
      { index: content.askIndex(), pricing: deps.pricing, origin: content.origin, now: deps.now() },
      body,
    );
    // The content team's to-do list (questions the site has no answer for, not requests for a person): counted off
    // the answer's path, scrubbed, bounded; once per client and day (the store gets a daily hash of the client,
    // never its address).
    if (answer.reason === 'no-match') deps.recordUnanswered(answer.question, client);
    return { status: 200, body: answer };
  },
});
