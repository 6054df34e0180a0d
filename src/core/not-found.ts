/** @module The markdown answer for a path that does not exist: where an agent can look instead. */

/** The markdown answer for a path that does not exist. */
export function notFoundMarkdown(path: string, origin: string): string {
  return [
    '# Not found',
    '',
    `There is no page at \`${path.slice(0, 200).replace(/[`\n\r]/g, '')}\`.`,
    '',
    'Where to look instead:',
    '',
    `- [llms.txt](${origin}/llms.txt): site summary and an index of every page as markdown`,
    `- [sitemap.md](${origin}/sitemap.md): every page with its title and URL, by section`,
    `- [sitemap.xml](${origin}/sitemap.xml): every published URL`,
    `- [openapi.json](${origin}/openapi.json): the API description`,
    `- [/api/v1/pages](${origin}/api/v1/pages): the page index as JSON`,
    `- [/.well-known/mcp.json](${origin}/.well-known/mcp.json): the MCP server (POST ${origin}/mcp)`,
    `- [/.well-known/ard.json](${origin}/.well-known/ard.json): catalogue of agentic resources`,
    `- [/.well-known/api-catalog](${origin}/.well-known/api-catalog): API catalogue (RFC 9727)`,
    `- [/auth.md](${origin}/auth.md): no authentication is needed`,
    `- [/api-deprecation-policy](${origin}/api-deprecation-policy): deprecation policy`,
    `- [/api/v1/sandbox](${origin}/api/v1/sandbox): the lead validation sandbox`,
    '',
  ].join('\n');
}
