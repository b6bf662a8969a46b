/**
 * Building the URLs the transport sends to: the base URL checked once, a
 * route's path template filled with encoded parameters, and the query
 * string written as `URLSearchParams` would write it, without building a
 * URL object per call.
 *
 * @example
 * ```ts
 * import { parseBaseUrl, requestUrl } from "./urls.ts";
 * const prefix = parseBaseUrl("https://api.example.com/v1").href.replace(/\/$/, "");
 * const url = requestUrl(prefix, "/models", { page: 2, name: "a b" });
 * if (url !== "https://api.example.com/v1/models?page=2&name=a+b") throw new Error(url);
 * ```
 *
 * @module
 */
import { fillPath } from "../schemas/routes.ts";
import { ConfigurationError } from "./errors.ts";

/** Query string parameters of one call (undefined ones are left out). */
export type Query = Record<string, string | number | undefined>;

/**
 * The base URL as a URL whose path ends in `/`; throws a
 * `ConfigurationError` for anything but an absolute http(s) URL.
 *
 * @example
 * ```ts
 * import { parseBaseUrl } from "./urls.ts";
 * if (parseBaseUrl("http://localhost:8080/api").pathname !== "/api/") throw new Error();
 * ```
 */
export function parseBaseUrl(baseUrl: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(baseUrl);
  } catch {
    // Reported below.
  }
  // Paths are appended to the base URL's text, so a query or a fragment
  // in it sent every call elsewhere ("/v1?key=1/workspaces"); credentials
  // in it would show in messages and inspections.
  const credentials = !!(url?.username || url?.password);
  if (
    !url || (url.protocol !== "http:" && url.protocol !== "https:") ||
    url.search || url.hash || credentials
  ) {
    throw new ConfigurationError({
      message: `Invalid base URL ${
        credentials ? "(with credentials in it)" : JSON.stringify(baseUrl)
      }`,
      hint:
        "Pass an absolute http(s) URL without query, fragment or credentials, such as https://api.example.com (option baseUrl or MLP_BASE_URL)",
    });
  }
  if (!url.pathname.endsWith("/")) url.pathname += "/";
  return url;
}

/** Path templates split at their placeholders (literal, name, literal, ...). */
const templates = new Map<string, string[]>();

/**
 * The path of `template` with `params` filled in, URI-encoded:
 * `fillPath(template, params)` from the template split once, instead of a
 * regular expression replace per call; a missing parameter throws
 * fillPath's error.
 *
 * @example
 * ```ts
 * import { filledPath } from "./urls.ts";
 * if (filledPath("/models/{id}", { id: "a/b" }) !== "/models/a%2Fb") throw new Error();
 * ```
 */
export function filledPath(
  template: string,
  params: Record<string, string> | undefined,
): string {
  let parts = templates.get(template);
  if (!parts) {
    parts = template.split(/\{(\w+)\}/);
    templates.set(template, parts);
  }
  let path = parts[0];
  for (let i = 1; i < parts.length; i += 2) {
    const value = params?.[parts[i]];
    if (
      typeof value !== "string" || value === "" || value === "." ||
      value === ".."
    ) return fillPath(template, params); // fillPath's error
    path += encodeURIComponent(value) + parts[i + 1];
  }
  return path;
}

/** Query keys and values that form encoding leaves as they are. */
const FORM_SAFE = /^[\w.*-]*$/;

/**
 * `prefix` (the base URL without its trailing slash) plus `path` and
 * `query`, as `URL` with `searchParams.set` would write it (form
 * encoding), without building a URL object.
 *
 * @example
 * ```ts
 * import { requestUrl } from "./urls.ts";
 * const url = requestUrl("https://h.invalid", "/x", { q: "ä", skip: undefined });
 * if (url !== "https://h.invalid/x?q=%C3%A4") throw new Error(url);
 * ```
 */
export function requestUrl(
  prefix: string,
  path: string,
  query?: Query,
): string {
  let url = prefix + path;
  if (query) {
    let separator = "?";
    for (const key in query) {
      const value = query[key];
      if (value === undefined || !Object.hasOwn(query, key)) continue;
      const text = String(value);
      url += separator +
        (FORM_SAFE.test(key) && FORM_SAFE.test(text)
          ? `${key}=${text}`
          : new URLSearchParams([[key, text]]).toString());
      separator = "&";
    }
  }
  return url;
}

/**
 * The URL path of `url` (built from `basePath` + `path`), for messages.
 *
 * @example
 * ```ts
 * import { messagePath } from "./urls.ts";
 * if (messagePath("/v1", "/models/..", "https://h.invalid/v1/models/..") !== "/v1/") throw new Error();
 * ```
 */
export function messagePath(
  basePath: string,
  path: string,
  url: string,
): string {
  // A "." or ".." segment (an id such as "..") is resolved by the URL
  // parser: let it say what was requested.
  return path.includes("/.") ? new URL(url).pathname : basePath + path;
}
