/** @module What the MCP server's tools and resources read: the content, the pricing data, the clock. */
import type { Pricing } from '../contract/content.ts';
import type { ContentSource } from '../core/content-source.ts';

export interface McpDeps {
  content: ContentSource;
  pricing: Pricing;
  /** Now, ms since the epoch: the assistant's handoff fits the hour. */
  now: () => number;
  /**
   * The build's OpenAPI document (dist/openapi.json, written by the derive step): the `openapi.json` resource
   * is its bytes. Absent, or built for another origin: `openApi()` instead.
   */
  openApiFile?: string;
  /** The OpenAPI document's text built from the operation list (src/operations/index.ts passes it in). */
  openApi: () => string;
}
