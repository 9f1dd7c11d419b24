// The HTTP service under load on loopback: GET /v1/normalize (one URL a request) and POST
// /v1/normalize (1,000-line NDJSON batches), driven by autocannon from the main thread against a
// server in a worker thread. Each route is measured against the same Hono app answering the same
// bytes as a constant (the framework and socket ceiling), interleaved round by round; the batch
// rate is also read against normalize() in-process over the same 1,000 URLs.
import { Worker } from "node:worker_threads";
import autocannon from "autocannon";
import { normalize } from "../src/index.js";
import { generateCorpus } from "./corpus.js";
import type { ServeWorkerData } from "./serve-worker.js";

/** One contender's medians. */
export interface ServeRate {
  requestsPerSecond: number;
  urlsPerSecond: number;
}

/** What {@link benchServe} measured (medians over the rounds). */
export interface ServeBenchResult {
  batchSize: number;
  rounds: number;
  seconds: number;
  getConnections: number;
  postConnections: number;
  get: { canonurl: ServeRate; constant: ServeRate };
  post: { canonurl: ServeRate; constant: ServeRate };
  /** normalize() in-process over the batch's URLs, one thread, measured in each round. */
  inProcessUrlsPerSecond: number;
  /** Median over the rounds of the batch route's URLs/s over that round's in-process rate. */
  batchRatio: number;
  /** Answers that were not 2xx, or failed, in all measured runs (0 when the figures are clean). */
  faults: number;
}

const GET_URL = "HTTP://WWW.Example.COM:80/a/./b/../c/?utm_source=news&b=2&a=1#frag";

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function startWorker(data: ServeWorkerData): Promise<{ worker: Worker; origin: string }> {
  const worker = new Worker(new URL("./serve-worker.js", import.meta.url), { workerData: data });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once("message", (message: { port: number }) => resolve(message.port));
    worker.once("error", reject);
  });
  return { worker, origin: `http://127.0.0.1:${port}` };
}

async function load(
  url: string,
  connections: number,
  seconds: number,
  post?: string,
): Promise<{ rps: number; faults: number }> {
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    ...(post === undefined
      ? {}
      : { method: "POST" as const, body: post, headers: { "content-type": "application/x-ndjson" } }),
  });
  return { rps: result.requests.average, faults: result.non2xx + result.errors + result.timeouts };
}

/** URLs per second of normalize() over `urls` on this thread, median of `rounds` passes of ~0.5 s. */
function inProcessRate(urls: readonly string[], rounds: number): number {
  const rates: number[] = [];
  let sink = 0;
  for (let round = 0; round < rounds + 1; round++) {
    const start = process.hrtime.bigint();
    let done = 0;
    while (Number(process.hrtime.bigint() - start) < 5e8) {
      for (const url of urls) {
        try {
          sink += normalize(url).length;
        } catch {
          sink++;
        }
      }
      done += urls.length;
    }
    // The first pass warms the JIT up and is not counted.
    if (round > 0) rates.push(done / (Number(process.hrtime.bigint() - start) / 1e9));
  }
  if (sink < 0) console.log(sink);
  return median(rates);
}

/**
 * Runs the serve bench. `BENCH_SERVE_SECONDS` (default 5) is one load run; `BENCH_SERVE_ROUNDS`
 * (default 3) the interleaved rounds per contender and route.
 *
 * @example
 * ```ts
 * const r = await benchServe();
 * console.log(r.post.canonurl.urlsPerSecond / r.inProcessUrlsPerSecond);
 * ```
 */
export async function benchServe(): Promise<ServeBenchResult> {
  const seconds = Number(process.env.BENCH_SERVE_SECONDS ?? 5);
  const rounds = Number(process.env.BENCH_SERVE_ROUNDS ?? 3);
  const batchSize = 1000;
  const getConnections = 16;
  const postConnections = 4;
  const urls = generateCorpus(batchSize);
  const batch = urls.map((url) => `${JSON.stringify({ url })}\n`).join("");
  const getPath = `/v1/normalize?url=${encodeURIComponent(GET_URL)}`;

  const real = await startWorker({ kind: "canonurl" });
  // The constant app answers exactly the bytes the service answers, so only the work differs.
  const getBody = await (await fetch(real.origin + getPath)).text();
  const postResponse = await fetch(`${real.origin}/v1/normalize`, { method: "POST", body: batch });
  const postBody = await postResponse.text();
  if (!postResponse.ok || postBody.split("\n").length !== batchSize + 1) {
    throw new Error(`the service answered the batch with ${postResponse.status}: ${postBody.slice(0, 200)}`);
  }
  const constant = await startWorker({ kind: "constant", getBody, postBody });

  const samples = {
    get: { canonurl: [] as number[], constant: [] as number[] },
    post: { canonurl: [] as number[], constant: [] as number[] },
  };
  let faults = 0;
  const inProcess: number[] = [];
  const ratios: number[] = [];
  try {
    // One short warm-up run each, so the measured rounds see compiled code on both sides.
    for (const server of [real, constant]) {
      await load(server.origin + getPath, getConnections, 1);
      await load(`${server.origin}/v1/normalize`, postConnections, 1, batch);
    }
    for (let round = 0; round < rounds; round++) {
      // Alternate which contender goes first, so drift on a shared machine spreads over both.
      const order =
        round % 2 === 0 ? (["canonurl", "constant"] as const) : (["constant", "canonurl"] as const);
      for (const kind of order) {
        const server = kind === "canonurl" ? real : constant;
        const get = await load(server.origin + getPath, getConnections, seconds);
        const post = await load(`${server.origin}/v1/normalize`, postConnections, seconds, batch);
        samples.get[kind].push(get.rps);
        samples.post[kind].push(post.rps);
        faults += get.faults + post.faults;
      }
      // In every round, beside the load runs: on a machine other work keeps busy, the loop and the
      // service then see the same load, and their ratio is read round by round.
      inProcess.push(inProcessRate(urls, 3));
      ratios.push(
        ((samples.post.canonurl.at(-1) ?? Number.NaN) * batchSize) / (inProcess.at(-1) ?? Number.NaN),
      );
    }
  } finally {
    await real.worker.terminate();
    await constant.worker.terminate();
  }
  const rate = (rps: number[], perRequest: number): ServeRate => ({
    requestsPerSecond: median(rps),
    urlsPerSecond: median(rps) * perRequest,
  });
  return {
    batchSize,
    rounds,
    seconds,
    getConnections,
    postConnections,
    get: { canonurl: rate(samples.get.canonurl, 1), constant: rate(samples.get.constant, 1) },
    post: {
      canonurl: rate(samples.post.canonurl, batchSize),
      constant: rate(samples.post.constant, batchSize),
    },
    inProcessUrlsPerSecond: median(inProcess),
    batchRatio: median(ratios),
    faults,
  };
}
