/** What a permalink carries: the text typed, the preset and the view chosen. */
export interface PlaygroundState {
  text: string;
  preset: "identity" | "rfc3986";
  /** `each`: every link explained; `groups`: the links grouped by key ("many links"). */
  view?: "each" | "groups";
}

/**
 * The URL fragment that reproduces `state` (`#u=…&p=rfc3986`). A fragment never reaches a server,
 * so a shared link does not leak the URLs it holds into anyone's access log.
 *
 * @example
 * ```ts
 * stateToFragment({ text: "a.example/?x=1", preset: "identity" }); // "#u=a.example%2F%3Fx%3D1"
 * ```
 */
export function stateToFragment(state: PlaygroundState): string {
  const params = new URLSearchParams();
  params.set("u", state.text);
  if (state.preset !== "identity") params.set("p", state.preset);
  if (state.view === "groups") params.set("v", "groups");
  return `#${params.toString()}`;
}

/**
 * Reads a fragment written by {@link stateToFragment}; anything else gives the empty state.
 *
 * @example
 * ```ts
 * fragmentToState("#u=a.example&p=rfc3986"); // { text: "a.example", preset: "rfc3986", view: "each" }
 * ```
 */
export function fragmentToState(fragment: string): PlaygroundState {
  const params = new URLSearchParams(fragment.startsWith("#") ? fragment.slice(1) : fragment);
  return {
    text: params.get("u") ?? "",
    preset: params.get("p") === "rfc3986" ? "rfc3986" : "identity",
    view: params.get("v") === "groups" ? "groups" : "each",
  };
}
