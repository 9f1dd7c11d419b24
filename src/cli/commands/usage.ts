// The network flags, as canonurl itself and the subcommands that resolve (serve, fleet work) list them.
const NETWORK_FLAG_LINES = `  --concurrency N           URLs in flight (default 8)
  --host-concurrency N      requests in flight to one host (default 6)
  --max-hops N              redirects + canonical links followed (default 10)
  --timeout MS              deadline per URL across every hop (default 30000)
  --allow-private           allow private and loopback addresses
  --allow-network CIDR      allow this network despite the address policy (repeatable)
  --allowed-port N          ports that may be dialled (repeatable; default 80 and 443)
  --resolve HOST:ADDRESS    a fixed DNS answer, still checked by the address policy (repeatable)
`;

/** The text `canonurl --help` (and `canonurl help`) prints. */
export const USAGE = `Usage:
  canonurl [options] [URL...]     canonicalize URLs from the arguments, else one per line on stdin
  canonurl classify [--json] [STRING...]
                                  what an untrusted string structurally carries, as a browser reads it
  canonurl explain [options] URL  the normalization pipeline, step by step
  canonurl serve [options]        the HTTP service and its playground (docs/serve.md)
  canonurl fleet submit|work|results [options]
                                  a distributed batch on Redis (docs/fleet.md)
  canonurl help | version         this text | the version
  Every subcommand takes --help for its own flags.

Options:
  --offline                 no network: normalize and apply domain rules only
  --json                    one JSON object per input line (NDJSON)
  -o, --output FILE         write the results to FILE instead of stdout
  --resume                  with -o: keep the complete lines already in FILE, run only the rest
  --progress, --no-progress progress on stderr (default: when stderr is a terminal and the
                            results do not go to it)
  --workers N               offline: threads that canonicalize, the main one included (default
                            1); output stays in input order
  --unique                  print each key once, in the order of its first input
  --groups                  at the end, one NDJSON {key, count, inputs} per key, first-seen order
  --max-keys N              with --unique or --groups: distinct keys held at most; one more stops
                            the run with status 2 (default 1000000, about 180 MB)
  --group-inputs N          with --groups: inputs listed per key, the rest only counted (default 100)
  --version                 print the version (also: canonurl version)

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
${NETWORK_FLAG_LINES}  --cache FILE|redis://HOST:PORT[/DB]   where resolutions are cached (default: SQLite in
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

const NETWORK_HELP = `Network (as for canonurl itself):
${NETWORK_FLAG_LINES}`;

/** The text `canonurl explain --help` prints. */
export const EXPLAIN_USAGE = `Usage: canonurl explain [options] URL

The normalization pipeline for one URL, step by step: the parsed input, the generic pass, the
domain rule (with its name), the final tracking pass. Never uses the network.

Options:
  --json                    the whole explanation as one JSON object
  --offline                 accepted (explain is always offline), so a canonicalizing command
                            line also works after explain
  the normalization flags of canonurl --help (--preset, --sort, --trailing-slash, --keep-param,
  --strip-param, --strip-tracking, --no-strip-fragment, --default-scheme, --rules, --no-rules,
  --amazon-host)
  -h, --help                this text

Exit status: 0, 1 when the URL is invalid (the reason on stderr), 2 usage error.
`;

/** The text `canonurl serve --help` prints. */
export const SERVE_USAGE = `Usage: canonurl serve [options]

The HTTP service (docs/serve.md): /v1/normalize, /v1/explain, /v1/classify, /v1/resolve,
/openapi.json, /healthz and the playground at /. Prints "listening on http://HOST:PORT" on
stderr when ready; SIGTERM or SIGINT stop accepting and drain the requests in flight.

Options:
  --host H                  address to listen on (default 127.0.0.1); beyond loopback without
                            --token a warning is printed
  --port P                  port (default 8787; 0 picks a free one)
  --allow-resolve           enable POST /v1/resolve (network access); off by default
  --token T                 require "Authorization: Bearer T" on /v1/resolve (or set
                            CANONURL_SERVE_TOKEN, which stays out of ps)
  --max-body-bytes N        largest request body (default 4194304)
  --max-batch N             most inputs in one batch (default 10000)
  --max-in-flight N         requests at once; the next gets 429 (default 64)
  --request-timeout MS      deadline of one request, reading its body and writing its answer
                            included; a client that stops reading is cut off there (default 60000)
  --drain-timeout MS        longest wait for requests in flight after SIGTERM (default 10000)
${NETWORK_HELP}  --cache FILE|redis://HOST:PORT[/DB]   resolution cache shared by every request (default:
                            SQLite in $XDG_CACHE_HOME/canonurl, else ~/.cache/canonurl)
  --no-cache                no cache
  --refresh                 resolve every URL anew once, storing the fresh answers
  -h, --help                this text
`;

/** The text `canonurl fleet --help` prints. */
export const FLEET_USAGE = `Usage:
  canonurl fleet submit --redis URL [--queue Q] [--job NAME] [--chunk-size N] [FILE|-]
  canonurl fleet work --redis URL [--queue Q] [--concurrency N] [client flags]
  canonurl fleet results --redis URL [--queue Q] --job NAME [--json] [--follow]

A distributed batch on Redis (docs/fleet.md): submit queues the inputs and prints the job name,
workers resolve them, results prints one line per input in input order, as canonurl does.
Every command gives up on an unreachable Redis after --redis-timeout MS (default 5000) with one
line naming the address, exit status 1. Each subcommand takes --help for its own flags.
`;

const REDIS_HELP = `  --redis URL               redis://HOST:PORT[/DB] (required)
  --queue Q                 the queue's name (default canonurl)
  --redis-timeout MS        give up on an unreachable Redis after MS (default 5000)
`;

/** The text `canonurl fleet submit --help` prints. */
export const FLEET_SUBMIT_USAGE = `Usage: canonurl fleet submit --redis URL [options] [FILE|-]

Queues one input per line of FILE (else stdin) as a job and prints its name. Never waits on
workers. A job name submitted before answers at once with that name and queues nothing.

Options:
${REDIS_HELP}  --job NAME                the job's name (default: a random one)
  --chunk-size N            inputs per queued chunk (default 100)
  -h, --help                this text
`;

/** The text `canonurl fleet work --help` prints. */
export const FLEET_WORK_USAGE = `Usage: canonurl fleet work --redis URL [options]

Resolves queued chunks until SIGINT or SIGTERM, then finishes the chunks in hand within
--drain-timeout, Redis reachable or not (a chunk let go of runs again on another worker).

Options:
${REDIS_HELP}  --stalled-interval MS     how often a chunk of a dead worker is looked for
  --drain-timeout MS        longest wait for the chunks in hand after SIGTERM (default 10000)
${NETWORK_HELP}  -h, --help                this text
`;

/** The text `canonurl fleet results --help` prints. */
export const FLEET_RESULTS_USAGE = `Usage: canonurl fleet results --redis URL --job NAME [options]

One line per input in input order, the same plain and --json shapes as canonurl. Exit status 1
when an input failed or the job is not done yet (--follow waits for the rest).

Options:
${REDIS_HELP}  --job NAME                the job (required)
  --json                    one JSON object per input (NDJSON)
  --follow                  wait for the inputs not done yet
  -h, --help                this text
`;
