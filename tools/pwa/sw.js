/* Riichi Judge Handbook -- precaching service worker.
 *
 * Template: tools/pwa/build.py fills in the cache name and the file lists and writes build/pwa/sw.js.
 * Flet 1.0.5's own flutter_service_worker.js only unregisters itself, so without this worker the
 * published app cannot start offline (see workaround_service_worker in build.py).
 *
 * - install: download every file the app needs into a cache named from a hash of their contents
 *   (a new build gets a new name, so it never mixes with the old one);
 * - activate: delete the caches of older builds and take control of open pages;
 * - fetch: cache first (files stored gzip-compressed are decompressed on the way, see
 *   GZIPPED); page navigations (/, /rules/azrm/2.4, ...) get the cached index.html,
 *   since every route is the same single-page app. Same-origin files outside the precache
 *   (the licence page, another browser's renderer) are cached the first time they are fetched.
 * - "ready offline": the worker is activated only once every file is in its cache, so an active
 *   worker means the app works without the network. It says so on the BroadcastChannel
 *   "rjh-offline" when it activates, and answers "offline-ready" (a path no file has) for the
 *   app to ask at start (handbook/ui/offline.py).
 *
 * - extras (the memory snapshot of Python: later starts about 1 s sooner, 8 MB) are downloaded
 *   only once the app is ready offline, when the page asks (a "message" {rjh: 'extras'}): the app
 *   works offline without them, and a first visit on a slow network is not held up by them.
 *
 * The page registers this worker once the app's first screen is built (index.html, build.py
 * SW_REGISTRATION), so the precache does not compete with the first visit for the network.
 */
'use strict';

const CACHE_PREFIX = 'rjh-precache-';
const CACHE = '__CACHE_NAME__';

// Files every browser loads, relative to the worker's scope.
const CORE = __PRECACHE__;

// What Flutter's loader runs in each browser (build.py RENDERER_VARIANTS): the page registers
// sw.js?variant=skwasm on Blink with WebAssembly GC (dart2wasm + skwasm), "chromium" on older
// Blink (dart2js + its CanvasKit), "full" elsewhere (Safari, Firefox: dart2js + full CanvasKit).
const VARIANTS = __VARIANTS__;

// Files that only make later starts faster, fetched after the precache (see above).
const EXTRAS = __EXTRAS__;

const ASKED = new URL(self.location.href).searchParams.get('variant');
const VARIANT = Object.prototype.hasOwnProperty.call(VARIANTS, ASKED) ? ASKED : 'full';
const url = (path) => new URL(path, self.registration.scope).href;
const INDEX = url('index.html');

// Some files (CanvasKit and skwasm, the fonts: build.py GZIP_PRECACHED) are precached gzip-compressed, as
// "<file>.gz" (less to download and keep on the phone), and handed to the page decompressed.
// A browser without DecompressionStream precaches the plain files instead.
const COMPRESSED = new Set(__GZIPPED__);  // plain paths whose "<path>.gz" is in the lists above
const GUNZIP = typeof DecompressionStream !== 'undefined';
const plain = (path) => (path.endsWith('.gz') && COMPRESSED.has(path.slice(0, -3)))
  ? path.slice(0, -3) : null;
const PRECACHE = CORE.concat(VARIANTS[VARIANT])
  .map((path) => (!GUNZIP && plain(path)) || path);
// ... except these, downloaded compressed but stored decompressed at install: the WebAssembly
// Python's start waits for, which the browser compiles once and keeps compiled beside the cache
// entry (a response decompressed at every start is compiled at every start: 1.3 s here)
const INFLATED = new Set(__INFLATED__);
const GZIPPED = new Set(GUNZIP ? [...COMPRESSED].filter((p) => !INFLATED.has(p)).map(url) : []);
const STATUS = url('offline-ready');
const OFFLINE_CHANNEL = 'rjh-offline';
const TYPES = {
  js: 'text/javascript', mjs: 'text/javascript', wasm: 'application/wasm', json: 'application/json',
  ttf: 'font/ttf', otf: 'font/otf', zip: 'application/zip',
};

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // 'no-cache' revalidates with the server (a 304 reuses the copy the page just downloaded),
    // so a stale HTTP-cached file never enters a new build's cache.
    await Promise.all(PRECACHE.map(async (path) => {
      const response = await fetch(new Request(url(path), { cache: 'no-cache' }));
      if (!response.ok) {
        throw new Error(`precache: ${path}: HTTP ${response.status}`);
      }
      // a host that sends "<file>.gz" with Content-Encoding: gzip has it decoded already
      const decoded = plain(path) && /gzip/i.test(response.headers.get('Content-Encoding') || '');
      if (plain(path) && INFLATED.has(plain(path))) {
        const type = TYPES[plain(path).split('.').pop()] || 'application/octet-stream';
        const body = decoded ? response.body : response.body.pipeThrough(new DecompressionStream('gzip'));
        await cache.put(url(plain(path)), new Response(body, { status: 200, headers: { 'Content-Type': type } }));
        return;
      }
      await cache.put(url(decoded ? plain(path) : path), response);
    }));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    const keys = await caches.keys();
    await Promise.all(keys
      .filter((key) => key.startsWith(CACHE_PREFIX) && key !== CACHE)
      .map((key) => caches.delete(key)));
    await self.clients.claim();
    try {
      new BroadcastChannel(OFFLINE_CHANNEL).postMessage({ ready: true, cache: CACHE });
    } catch (e) { /* no BroadcastChannel: the app asks STATUS at its next start */ }
  })());
});

self.addEventListener('message', (event) => {
  if (event.data && event.data.rjh === 'extras') {
    event.waitUntil(fetchExtras());
  }
});

async function fetchExtras() {
  const cache = await caches.open(CACHE);
  await Promise.all(EXTRAS.map(async (path) => {
    try {
      if (!(await cache.match(url(path)))) {
        const response = await fetch(new Request(url(path), { cache: 'no-cache' }));
        if (response.ok) {
          await cache.put(url(path), response);
        }
      }
    } catch (e) { /* offline again: the next start asks once more */ }
  }));
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) {
    return; // let the browser handle it
  }
  if (request.url.split(/[?#]/)[0] === STATUS) {
    // active, hence installed: every file of the precache is in CACHE
    event.respondWith(new Response(JSON.stringify({ ready: true, cache: CACHE }),
      { headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' } }));
    return;
  }
  if (request.mode === 'navigate') {
    event.respondWith(fromCache(INDEX).then((hit) => hit || fetch(request)));
    return;
  }
  const href = request.url.split(/[?#]/)[0];
  if (GZIPPED.has(href) && !request.headers.has('range')) {
    event.respondWith(fromGzip(request, href));
    return;
  }
  event.respondWith(cacheFirst(request));
});

async function fromGzip(request, href) {
  const hit = await (await caches.open(CACHE)).match(href + '.gz');
  if (!hit) {
    return cacheFirst(request);
  }
  const type = TYPES[href.split('.').pop()] || 'application/octet-stream';
  return new Response(hit.body.pipeThrough(new DecompressionStream('gzip')),
    { status: 200, headers: { 'Content-Type': type } });
}

async function fromCache(request) {
  const cache = await caches.open(CACHE);
  return cache.match(request, { ignoreSearch: true });
}

async function cacheFirst(request) {
  const hit = await fromCache(request);
  if (hit) {
    return hit;
  }
  const response = await fetch(request);
  if (response.ok && response.type === 'basic' && !request.headers.has('range')) {
    const copy = response.clone();
    caches.open(CACHE).then((cache) => cache.put(request, copy));
  }
  return response;
}
