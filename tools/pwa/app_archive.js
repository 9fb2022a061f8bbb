// ---- Riichi Judge Handbook (put into python-worker.js by tools/pwa/build.py, unpack_app_archive_in_js)
// Fetch the app archive, gunzip it with the browser's own DecompressionStream and write its files
// straight into Pyodide's file system, instead of doing all that in Python. Flet's boot script
// then finds them in place and skips its own download and unpack. Anything unexpected (another
// archive format, a tar entry that is not a plain file or folder, a path leaving the app folder,
// no DecompressionStream) leaves the archive to Flet's boot script, as before.
self.rjhFetchArchive = function (appPackageUrl, args) {
  const keys = args && typeof args === "object" ? Object.keys(args) : [];
  const path = new URL(appPackageUrl, self.location.href).pathname.toLowerCase();
  if (keys.includes("script") || keys.includes("app_package_url") ||
      !(path.endsWith(".tar.gz") || path.endsWith(".tgz")) ||
      typeof DecompressionStream === "undefined") {
    return Promise.resolve(null);
  }
  return fetch(appPackageUrl)
    .then((response) => response.ok ?
      new Response(response.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer() : null)
    .catch((error) => {
      console.warn("app archive left to the boot script:", error);
      return null;
    });
};

// The regular files and folders of an uncompressed tar (ustar or GNU, as Python's tarfile
// writes it), as [{name, dir, data}]; throws on anything else.
self.rjhTarEntries = function (buffer) {
  const bytes = new Uint8Array(buffer);
  const text = new TextDecoder();
  const field = (offset, length) => {
    let end = offset;
    while (end < offset + length && bytes[end] !== 0) end++;
    return text.decode(bytes.subarray(offset, end));
  };
  const entries = [];
  let pos = 0;
  let longName = null;
  while (pos + 512 <= bytes.length && bytes[pos] !== 0) {
    const header = pos;
    const size = parseInt(field(header + 124, 12).trim() || "0", 8);
    if (!Number.isFinite(size) || size < 0 || header + 512 + size > bytes.length) {
      throw new Error(`app archive: bad size at ${header}`);
    }
    const type = bytes[header + 156] === 0 ? "0" : String.fromCharCode(bytes[header + 156]);
    const data = bytes.subarray(header + 512, header + 512 + size);
    pos = header + 512 + Math.ceil(size / 512) * 512;
    if (type === "L") {                       // GNU long name: the next entry's name
      longName = field(header + 512, size);
      continue;
    }
    let name = longName;
    longName = null;
    if (name === null) {
      name = field(header, 100);
      const prefix = field(header + 345, 155);
      if (field(header + 257, 6) === "ustar" && prefix) {   // POSIX ustar (GNU has no prefix)
        name = prefix + "/" + name;
      }
    }
    const parts = name.split("/").filter((p) => p !== "" && p !== ".");
    if (parts.some((p) => p === "..")) {
      throw new Error(`app archive: ${name} points outside the app`);
    }
    if (type !== "0" && type !== "7" && type !== "5") {
      throw new Error(`app archive: ${name} is not a file or folder (type ${type})`);
    }
    if (parts.length) {
      entries.push({ name: parts.join("/"), dir: type === "5", data: data });
    }
  }
  return entries;
};

// Write the fetched archive into Pyodide's working folder; true when every file is there.
self.rjhUnpackArchive = function (pyodide, buffer) {
  if (buffer === null) {
    return false;
  }
  try {
    const FS = pyodide.FS;
    const made = new Set();
    const mkdir = (dir) => {
      if (dir && !made.has(dir)) {
        FS.mkdirTree(dir);
        made.add(dir);
      }
    };
    for (const entry of self.rjhTarEntries(buffer)) {
      if (entry.dir) {
        mkdir(entry.name);
      } else {
        mkdir(entry.name.split("/").slice(0, -1).join("/"));
        FS.writeFile(entry.name, entry.data);
      }
    }
    return true;
  } catch (error) {
    console.warn("app archive left to the boot script:", error);
    return false;
  }
};
