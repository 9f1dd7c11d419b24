const DAYS = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)";
const LONG_DAYS = "(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)";
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const MONTH = `(${MONTHS.join("|")})`;
const TIME = "(\\d{2}):(\\d{2}):(\\d{2})";
// RFC 9110 §5.6.7: IMF-fixdate, and the two obsolete forms a recipient must still accept.
const IMF_FIXDATE = new RegExp(`^${DAYS}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
const RFC_850 = new RegExp(`^${LONG_DAYS}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
const ASCTIME = new RegExp(`^${DAYS} ${MONTH} ( \\d|\\d{2}) ${TIME} (\\d{4})$`);
const DELAY_SECONDS = /^\d+$/;

function utc(year: number, month: string, day: string, h: string, m: string, s: string): number | null {
  const ms = Date.UTC(year, MONTHS.indexOf(month), Number(day), Number(h), Number(m), Number(s));
  const date = new Date(ms);
  // A day or time out of range (31 Feb, 25:00) would roll over silently: refuse it instead.
  if (
    date.getUTCDate() !== Number(day) ||
    date.getUTCHours() !== Number(h) ||
    date.getUTCSeconds() !== Number(s)
  )
    return null;
  return ms;
}

/** An HTTP-date (RFC 9110 §5.6.7) as epoch ms, or `null` when `value` is not one. */
function parseHttpDate(value: string, now: number): number | null {
  let m = IMF_FIXDATE.exec(value);
  if (m !== null)
    return utc(Number(m[3]), m[2] as string, m[1] as string, m[4] as string, m[5] as string, m[6] as string);
  m = RFC_850.exec(value);
  if (m !== null) {
    // RFC 9110 §5.6.7: a two-digit year more than 50 years ahead is the most recent past such year.
    let year = 2000 + Number(m[3]);
    if (year > new Date(now).getUTCFullYear() + 50) year -= 100;
    return utc(year, m[2] as string, m[1] as string, m[4] as string, m[5] as string, m[6] as string);
  }
  m = ASCTIME.exec(value);
  if (m !== null)
    return utc(
      Number(m[6]),
      m[1] as string,
      (m[2] as string).trim(),
      m[3] as string,
      m[4] as string,
      m[5] as string,
    );
  return null;
}

/**
 * The wait a `Retry-After` field asks for (RFC 9110 §10.2.3), in ms from `now`: `delay-seconds`
 * or an HTTP-date (a date in the past is no wait). `null` when the field is absent, repeated or
 * neither form, so no retry is ever built on a guess. A huge delay stays huge (possibly
 * `Infinity`); the caller compares it with its bounds.
 *
 * @example
 * ```ts
 * retryAfterMs("120", Date.now());                            // 120000
 * retryAfterMs("Wed, 21 Oct 2015 07:28:00 GMT", Date.parse("2015-10-21T07:27:00Z")); // 60000
 * retryAfterMs("soon", Date.now());                           // null
 * ```
 */
export function retryAfterMs(field: string | readonly string[] | undefined, now: number): number | null {
  if (field === undefined) return null;
  if (typeof field !== "string" && field.length !== 1) return null;
  const value = (typeof field === "string" ? field : (field[0] as string)).trim();
  if (DELAY_SECONDS.test(value)) return Number(value) * 1000;
  const date = parseHttpDate(value, now);
  return date === null ? null : Math.max(0, date - now);
}
