/** cli.md: `-o, --output FORMAT`: what `-o` accepts, for the settings and the renderers alike. */
export const OUTPUT_FORMATS = ['table', 'json', 'yaml', 'ndjson', 'csv', 'ids'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export function isOutputFormat(value: string): value is OutputFormat {
  return (OUTPUT_FORMATS as readonly string[]).includes(value);
}
