/** The text `canonurl --help` prints. */
export const USAGE = `Usage:
  canonurl [options] [URL...]     canonicalize URLs from the arguments, else one per line on stdin
  canonurl classify [--json] [STRING...]
                                  what an untrusted string structurally carries, as a browser reads it
  canonurl explain [options] URL  the normalization pipeline, step by step
  canonurl serve [--host H] [--port P] [--allow-resolve] [--token T] [limit and network flags]  HTTP service + playground (docs/serve.md)

Options:
  --offline                 no network: normalize and apply domain rules only
  --json                    one JSON object per input line (NDJSON)
  --preset identity|rfc3986 identity (default): tracking stripped, parameters sorted, domain rules;
                            rfc3986: syntactic normalization only
  --no-sort                 keep the query parameter order
  --trailing-slash keep|strip|add
  --keep-param NAME         never strip this parameter (repeatable)
  --format url|surt|ssurt   with --offline: print the canonical URL (default) or its SURT / SSURT key
  --rules FILE              extra domain rules (YAML or JSON), tried before the built-in ones
  --rules clearurls         the ClearURLs provider list, tried after the built-in rules
  --concurrency N           network mode: requests in flight (default 8)
  --max-hops N              network mode: redirects + canonical links followed (default 10)
  --timeout MS              network mode: deadline per URL across every hop (default 30000)
  --allow-private           network mode: allow private and loopback addresses
  -h, --help                this text

Output: one canonical URL per input line, in input order. A failed input prints an empty line
on stdout and "index<TAB>input<TAB>code: message" on stderr.
Exit status: 0 all inputs succeeded, 1 some failed, 2 usage error.
`;
