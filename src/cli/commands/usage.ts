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
  -o, --output FILE         write the results to FILE instead of stdout
  --resume                  with -o: keep the complete lines already in FILE, run only the rest
  --progress, --no-progress progress on stderr (default: when stderr is a terminal and the
                            results do not go to it)
  --workers N               offline: threads that canonicalize, the main one included (default
                            1); output stays in input order
  --version                 print the version

Normalization (also after explain):
  --preset identity|rfc3986 identity (default): tracking stripped, parameters sorted, domain rules;
                            rfc3986: syntactic normalization only
  --sort, --no-sort         sort the query parameters, or keep their order
  --trailing-slash keep|strip|add
  --keep-param NAME         never strip this parameter (repeatable)
  --strip-param NAME        also strip this parameter; name* is a prefix (repeatable)
  --strip-tracking, --no-strip-tracking
  --no-strip-fragment       keep the #fragment
  --default-scheme http|https   for input without a scheme (default http)
  --rules FILE              extra domain rules (YAML or JSON), tried before the built-in ones
  --rules clearurls         the ClearURLs provider list, tried after the built-in rules
  --no-rules                apply no domain rule
  --format url|surt|ssurt   with --offline: print the canonical URL (default) or its SURT / SSURT key
  --amazon-host regional|com

Network mode:
  --concurrency N           URLs in flight (default 8)
  --host-concurrency N      requests in flight to one host (default 6)
  --max-hops N              redirects + canonical links followed (default 10)
  --timeout MS              deadline per URL across every hop (default 30000)
  --allow-private           allow private and loopback addresses
  --allow-network CIDR      allow this network despite the address policy (repeatable)
  --allowed-port N          ports that may be dialled (repeatable; default 80 and 443)
  --resolve HOST:ADDRESS    a fixed DNS answer, still checked by the address policy (repeatable)
  --cache FILE|redis://HOST:PORT[/DB]   where resolutions are cached (default: SQLite in
                            $XDG_CACHE_HOME/canonurl, else ~/.cache/canonurl)
  --no-cache                no cache
  --refresh                 resolve every URL anew, storing the fresh answers
  -h, --help                this text

Output: one canonical URL per input line, in input order. A failed input prints an empty line
on stdout and "index<TAB>input<TAB>code: message" on stderr. A closed stdout (| head) ends the
run quietly with status 0.
Exit status: 0 all inputs succeeded, 1 some failed, 2 usage error, 74 the output could not be
written (a full disk: stderr names the input --resume continues from); 130/143 stopped by
SIGINT/SIGTERM (the results written so far are complete lines: --resume continues there).
`;
