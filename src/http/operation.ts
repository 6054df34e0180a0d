/**
 * @module The shape of one operation, declared once (`defineOperation`): its route, inputs, responses,
 * metering, cache class, CORS, MCP mirror, the content it reads and its handler. The route table, the
 * OpenAPI document, vercel.json, the middleware matcher check and the local server all derive from these
 * objects (src/operations/index.ts lists them); the pipeline (src/http/pipeline.ts) runs them.
 */
import type { z } from 'zod';
import type { Deps } from '../adapters/composition-root.ts';
import type { CacheClass, Deprecation, Meter } from '../contract/routes.ts';
import type { McpToolName } from '../contract/mcp.ts';
import type { ContentNeed } from '../core/content-source.ts';
import type { RateLimitRefusal, RateLimitState } from '../core/rate-limit.ts';
import type { BodyFailure } from './request-body.ts';

export type Method = 'GET' | 'POST';

/** Response headers the OpenAPI document describes (components/headers). */
export type HeaderName =
  | 'RateLimit-Limit'
  | 'RateLimit-Remaining'
  | 'RateLimit-Reset'
  | 'RateLimit-Policy'
  | 'Retry-After'
  | 'Idempotency-Replayed'
  | 'Vary'
  | 'ETag'
  | 'Cache-Control';

/** The four RateLimit headers every metered answer carries. */
export const RATE_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy'] as const;

/** A JSON Schema written by hand (for bodies that are not the contract's, such as JSON-RPC). */
export type JsonSchema = { [key: string]: unknown };

export interface ResponseSpec {
  description: string;
  /** The JSON body: a contract schema (with a meta `id`) or a hand-written JSON Schema. */
  schema?: z.ZodType | JsonSchema;
  example?: unknown;
  headers?: readonly HeaderName[];
  /** Other media types the same status may be answered with. */
  also?: readonly ('text/markdown' | 'text/html' | 'text/event-stream')[];
}

/** Responses by status; an operation with inputs documents its 400, a metered one its 429. */
export type Responses<M extends Meter, I extends boolean> = { 200: ResponseSpec } & (M extends 'none'
  ? unknown
  : { 429: ResponseSpec }) &
  (I extends true ? { 400: ResponseSpec } : unknown) & { [status: number]: ResponseSpec };

export interface BodySpec<B extends z.ZodType> {
  /** What the pipeline checks the parsed JSON against (400 with the first issue). */
  schema: B;
  /** Largest body in bytes (413 beyond). */
  maxBytes: number;
  /** The schema the OpenAPI document shows, when it is not `schema` itself (a raw body checked by core). */
  doc?: z.ZodType;
  /** Also taken as an HTML form post (`application/x-www-form-urlencoded`). */
  form?: boolean;
  /** The request example the OpenAPI document shows. */
  example?: unknown;
}

export interface HeaderParam {
  name: string;
  description: string;
  schema: JsonSchema;
}

/** What a handler gets: the parsed inputs, the request, the dependencies and the client's budget key. */
export interface HandlerContext<Q, B> {
  request: Request;
  deps: Deps;
  /** The budget key of the client (src/http/client-address.ts). */
  client: string;
  /** Path parameters (`{slug}`), decoded. */
  params: Record<string, string>;
  query: Q;
  body: B;
  /** The lead form's fields when the body came as an HTML form post (JavaScript off), else undefined. */
  form?: Record<string, string>;
  /** Headers the pipeline adds to the answer (RateLimit-*), for a handler that builds its own Response. */
  headers: Record<string, string>;
}

/**
 * What a handler returns: a JSON answer, or a finished Response (MCP's transport, the form's HTML page).
 * `rate` is the budget the answer reports when it is not the read the pipeline metered (the lead budget);
 * the pipeline writes it as the RateLimit headers.
 */
export type Answer =
  | { status: number; body: unknown; headers?: Record<string, string>; rate?: RateLimitState }
  | { response: Response; rate?: RateLimitState };

/** A static file served in the operation's place, with these headers: only the middleware serves one (getPage). */
export interface Rewrite {
  type: 'rewrite';
  path: string;
  headers: Record<string, string>;
}

/** How an operation is served: a function in `api/` (its file, without `.ts`), or the middleware. */
export type FunctionServe = { function: string; maxDuration?: number };
export type Serve = FunctionServe | 'middleware';

/** What a handler may return: a rewrite only where the middleware serves the operation. */
export type HandlerResult<S extends Serve> = S extends 'middleware' ? Answer | Rewrite : Answer;

/** What the pipeline refused around the handler: an input (400, 413), or a budget spent past its limit. */
export type Refusal =
  /** `failure` when the body could not be read (too large, broken off). */
  | { kind: 'refused'; status: 400 | 413; error: string; failure?: BodyFailure }
  | { kind: 'limited'; limit: RateLimitRefusal };

/** What `refused` gets besides the refusal: the request and, for a form post, the fields read (if any). */
export interface RefusalContext {
  request: Request;
  form?: Record<string, string>;
}

export interface OperationSpec<
  M extends Meter = Meter,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  S extends Serve = Serve,
> {
  id: string;
  method: Method;
  /** Path as the contract writes it (`{slug}` for a parameter). */
  path: string;
  summary: string;
  description: string;
  tag: 'Content' | 'Leads' | 'MCP' | 'Internal';
  /** A function in `api/` (its file, without `.ts`), or the middleware in front of the static files. */
  serve: S;
  /** Path parameters (`{slug}`), for the OpenAPI document; the handler checks them. */
  params?: z.ZodObject;
  query?: Q;
  body?: B extends z.ZodType ? BodySpec<B> : undefined;
  /**
   * A JSON body the handler reads itself (MCP's transport), described for the OpenAPI document only: the
   * pipeline leaves the request unread.
   */
  ownBody?: { schema: JsonSchema; example: unknown };
  headerParams?: readonly HeaderParam[];
  responses: Responses<M, Q extends z.ZodType ? true : B extends z.ZodType ? true : false>;
  /**
   * Which budget a request spends: `read` is metered by the pipeline before anything else; `lead` is
   * spent by the domain after its checks (an idempotent replay costs nothing); `none` is unmetered.
   */
  meter: M;
  /**
   * What a refused input spends instead, when the operation's own budget does not pay for it: `read` for
   * the lead endpoint, whose refused body (any 400 or 413 answer) costs what a read costs, never a lead, and
   * carries that read's RateLimit headers (contract, Limits rule 1).
   */
  refusalMeter?: 'read';
  /**
   * The operation's own answer to what the pipeline refused (an input, the `refusalMeter` budget), when the
   * Error body is not all it answers (the lead form's HTML page). Default: the Error body; a 429 with the
   * budget's headers.
   */
  refused?(refusal: Refusal, ctx: RefusalContext): Answer;
  cache: CacheClass;
  /** Public, read-only: any origin may call it (CORS `*` with the exposed headers). */
  cors: boolean;
  /**
   * Browsers may call it from the site's own pages only: a request carrying another `Origin` (or marked
   * `Sec-Fetch-Site: cross-site`) is refused with 400 whatever its content type, and no CORS header lets another
   * origin's script post it. Requests without an `Origin` (agents, curl, servers) are taken as before.
   */
  sameOrigin?: true;
  deprecated?: Deprecation;
  /** The MCP tool that offers the same operation, with the same limits. */
  mcp?: McpToolName;
  /** The content it reads (each Vercel function ships only those data files). */
  data: readonly ContentNeed[];
  /**
   * A Vercel cron schedule (vercel.json `crons`, five cron fields, UTC): Vercel then calls the path with GET on
   * that schedule. Only a GET operation a function serves can be one.
   */
  cron?: string;
  /** In the OpenAPI document (internal operations are not). */
  public: boolean;
  /** Methods on the same path that always answer 405, documented as such (MCP's GET and DELETE). */
  refuses?: readonly { method: 'GET' | 'DELETE'; id: string; summary: string; description: string }[];
  handler(
    ctx: HandlerContext<Q extends z.ZodType ? z.output<Q> : undefined, B extends z.ZodType ? z.output<B> : undefined>,
  ): HandlerResult<S> | Promise<HandlerResult<S>>;
}

type AnyInput = z.ZodType | undefined;
/** An operation a function in `api/` serves: it always answers with a Response. */
export type FunctionOperation = OperationSpec<Meter, AnyInput, AnyInput, FunctionServe>;
/** An operation the middleware serves: it may answer with a static file instead (a rewrite). */
export type MiddlewareOperation = OperationSpec<Meter, AnyInput, AnyInput, 'middleware'>;
/** An operation of any shape, as the pipeline and the derived tables see it. */
export type Operation = FunctionOperation | MiddlewareOperation;

/** Declares an operation; the types check that its responses cover its inputs and metering. */
export function defineOperation<
  M extends Meter,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  S extends Serve = Serve,
>(spec: OperationSpec<M, Q, B, S>): S extends 'middleware' ? MiddlewareOperation : FunctionOperation {
  return spec as unknown as S extends 'middleware' ? MiddlewareOperation : FunctionOperation;
}

/** True for an operation a function in `api/` serves. */
export const isFunctionOperation = (op: Operation): op is FunctionOperation => typeof op.serve === 'object';

/** The function file of an operation served by a function. */
export const functionOf = (op: Operation): string | undefined =>
  isFunctionOperation(op) ? op.serve.function : undefined;
