import type { DomainRule } from "../rules/domain-rule.js";
import type { TrackingLayer } from "./tracking-layer.js";

/**
 * Options of {@link normalize} and {@link explain}. Every field is optional; the preset decides the
 * defaults of the others.
 *
 * @example
 * ```ts
 * normalize("https://example.com/a/?b=2&a=1", { preset: "rfc3986" }); // "https://example.com/a/?b=2&a=1"
 * ```
 */
export interface NormalizeOptions {
  /**
   * `identity`: link-canonical's pipeline (generic pass, first matching domain rule, final tracking pass).
   * `rfc3986`: url_canonicalize's syntactic normalization table, nothing more.
   * @default "identity"
   */
  preset?: "identity" | "rfc3986";
  /** Remove tracking parameters. @default true for identity, false for rfc3986 */
  stripTracking?: boolean;
  /**
   * Deny patterns for tracking parameters; `"utm_*"` matches by prefix, names compare ASCII
   * case-insensitively. Replaces the built-in list. @default defaultTrackingParams
   */
  trackingParams?: readonly string[];
  /** Deny patterns added to `trackingParams` (the built-in list unless replaced). @default [] */
  extraTrackingParams?: readonly string[];
  /**
   * Parameter names that are never stripped: exact names, compared as written (a `*` is a
   * `TypeError`: a pattern here would silently keep more than the caller named). @default []
   */
  keepParams?: readonly string[];
  /**
   * Drop `user:password@` from the key, so credentials never reach logs or analytics.
   * @default true for identity, false for rfc3986
   */
  stripUserinfo?: boolean;
  /** Sort query parameters by key, then value. @default true for identity, false for rfc3986 */
  sortParams?: boolean;
  /** What to do with a trailing slash on a non-root path. @default "strip" for identity, "keep" for rfc3986 */
  trailingSlash?: "keep" | "strip" | "add";
  /** Drop the fragment (a rule may keep one, e.g. GitHub `#L10`). @default true */
  stripFragment?: boolean;
  /** Domain rules, first match wins; `false` for none. @default defaultRules for identity, false for rfc3986 */
  rules?: DomainRule[] | readonly DomainRule[] | false;
  /**
   * Tracking layers (e.g. `clearUrlsLayer()`), applied in order after the domain rule that claimed
   * the URL: they remove parameters (and may unwrap), never claim a URL. @default []
   */
  trackingLayers?: readonly TrackingLayer[];
  /**
   * normalize-url's habit, opt-in: `http://` becomes `https://`. Off by default: a server may
   * serve other content, or nothing, over https. @default false
   */
  forceHttps?: boolean;
  /**
   * normalize-url's habit, opt-in: `www.example.com` becomes `example.com` (not `www.com`). Off
   * by default: www and the bare name are two hosts that may serve two sites. @default false
   */
  stripWWW?: boolean;
  /**
   * normalize-url's habit, opt-in: a directory index document at the end of the path goes
   * (`/a/index.html` → `/a/`; index or default with .html, .htm, .shtml, .php, .asp, .aspx,
   * .jsp, .cfm, .cgi, .pl). @default false
   */
  removeDirectoryIndex?: boolean;
  /**
   * Remove session ids in their well-known forms: `;jsessionid=` path parameters, ASP.NET's
   * `/(S(…))/` segment, and `jsessionid`, `PHPSESSID`, `sid` (32 letters or digits),
   * `ASPSESSIONID…`, `CFID`+`CFTOKEN` in the query, as the Internet Archive's canonicalizer does.
   * @default true for identity, false for rfc3986
   */
  removeSessionIds?: boolean;
  /** Scheme for input without one (`"example.com/x"`). @default "http" */
  defaultScheme?: "http" | "https";
}
