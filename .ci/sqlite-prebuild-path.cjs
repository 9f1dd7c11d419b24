// Prints where better-sqlite3's install script (prebuild-install) looks for an earlier download of
// its prebuilt binary for the Node running this: the npm cache's _prebuilds folder, under a name
// derived from the release asset's URL. Computed with prebuild-install's own functions, so the
// name follows whatever version the lock file installed. Run from the repository root.
const root = `${process.cwd()}/node_modules/`;
const util = require(`${root}prebuild-install/util`);
const rc = require(`${root}prebuild-install/rc`);
const pkg = require(`${root}better-sqlite3/package.json`);
const opts = rc(pkg);
opts.pkg = pkg;
console.log(util.cachedPrebuild(util.getDownloadUrl(opts)));
