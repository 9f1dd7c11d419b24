// normalize-url's removeDirectoryIndex, with a fixed list: the index documents web servers serve
// for a directory by default (Apache DirectoryIndex, nginx index, IIS default documents, PHP,
// ColdFusion, JSP). A fixed list, not "index.*": /docs/index.rst is a file, not the directory.
const INDEX = /^(?:index|default)\.(?:html?|shtml|php[345]?|asp|aspx|jsp|cfm|cgi|pl)$/i;

/**
 * Removes a directory index document from the end of a path: `/a/index.html` → `/a/`,
 * `/default.aspx` → `/`. Only the last segment, only a listed name.
 *
 * @example
 * ```ts
 * removeDirectoryIndex("/docs/index.html"); // "/docs/"
 * removeDirectoryIndex("/docs/index.rst"); // "/docs/index.rst"
 * ```
 */
export function removeDirectoryIndex(path: string): string {
  const slash = path.lastIndexOf("/");
  const last = path.slice(slash + 1);
  return last.length > 0 && INDEX.test(last) ? path.slice(0, slash + 1) : path;
}
