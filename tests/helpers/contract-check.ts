/**
 * Checks every answer a test server gives against the OpenAPI document: for an operation of the
 * document, the status must be documented, its required headers present, the content type one it lists
 * and a JSON body valid against its schema; and nothing anywhere answers 5xx except the documented 502.
 * Violations are collected and asserted empty after each test file (see `checkedServerOptions`).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { buildOpenApi } from '../../src/http/openapi.ts';
import { operations } from '../../src/operations/index.ts';

type Json = Record<string, any>;

export interface ContractChecker {
  inspect(request: Request, response: Response): void;
  /** Waits for the checks in flight and returns the violations found so far. */
  violations(): Promise<string[]>;
  /** How many answers were checked against an operation. */
  checked(): number;
}

/** The checkers of the servers started by the current test file (tests/setup/contract.ts reads them). */
export const contractCheckers: ContractChecker[] = [];

const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

export function createContractChecker(origin: string): ContractChecker {
  const doc = buildOpenApi(origin, operations) as Json;
  const ajv = new Ajv2020({ strict: false, validateSchema: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema(doc, 'openapi');
  const paths = Object.keys(doc.paths as Json)
    .map((p) => ({ p, re: new RegExp(`^${p.replace(/\{[^}]+\}/g, '(.+)')}$`), params: /\{/.test(p) }))
    .sort((a, b) => Number(a.params) - Number(b.params)); // exact paths (…/batch) before templated ones
  const found: string[] = [];
  const pending: Promise<void>[] = [];
  let count = 0;

  async function check(request: Request, response: Response): Promise<void> {
    const url = new URL(request.url);
    const where = `${request.method} ${url.pathname}${url.search} -> ${response.status}`;
    const documented502 = url.pathname === '/api/lead' && response.status === 502;
    if (response.status >= 500 && !documented502) found.push(`${where}: a 5xx`);
    const path = paths.find((x) => x.re.test(url.pathname));
    const method = request.method === 'HEAD' ? 'get' : request.method.toLowerCase();
    const op = path && (doc.paths[path.p] as Json)[method];
    if (!op || request.method === 'OPTIONS') return;
    count++;
    const answer = op.responses[String(response.status)] ?? op.responses.default;
    if (!answer) return void found.push(`${where}: status not documented for ${op.operationId}`);
    for (const [name, h] of Object.entries((answer.headers ?? {}) as Json)) {
      const header = h.$ref ? doc.components.headers[h.$ref.split('/').pop()] : h;
      if (header.required && !response.headers.has(name)) found.push(`${where}: missing header ${name}`);
    }
    if (!answer.content || request.method === 'HEAD' || response.status === 304) return;
    const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
    if (!answer.content[type])
      return void found.push(
        `${where}: content type "${type}" not documented (${Object.keys(answer.content).join(', ')})`,
      );
    if (type !== 'application/json') return;
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return void found.push(`${where}: body is not JSON: ${text.slice(0, 100)}`);
    }
    const pointer = `openapi#/paths/${escapePointer(path!.p)}/${method}/responses/${op.responses[String(response.status)] ? response.status : 'default'}/content/${escapePointer(type)}/schema`;
    const validate = ajv.getSchema(pointer) ?? ajv.compile({ $ref: pointer });
    if (!validate(body))
      found.push(`${where}: body does not match: ${ajv.errorsText(validate.errors)} in ${text.slice(0, 200)}`);
  }

  return {
    inspect(request, response) {
      pending.push(
        check(request, response).catch(
          (e) => void found.push(`${request.method} ${request.url}: checker failed: ${e}`),
        ),
      );
    },
    async violations() {
      await Promise.all(pending);
      return [...found];
    },
    checked: () => count,
  };
}
