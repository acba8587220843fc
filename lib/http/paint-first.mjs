// Paint first, then run the page's code: the front's rewrite of the app's HTML (server.mjs).
//
// React writes each of the page's script chunks as `<script src="/_next/static/…" async>`. An async script
// runs as soon as it has arrived, and from a nearby server (or a phone on Wi-Fi next to it) the chunks arrive
// before the browser has painted the server's HTML: the browser then parses and runs ~140 kB of JavaScript
// first and paints the amount, the fee and the channels after it. The HTML already holds everything the first
// screen shows (docs/checkout.md), so nothing is gained by running the code first.
//
// Each such tag, and each `<link rel="preload" as="script">` React writes for a chunk the page will ask for,
// becomes a call to a small inline loader, which adds the scripts (and the preloads) once the browser reports
// the first contentful paint (a `paint` PerformanceObserver). Where that report cannot come, they are added at
// once: a page loaded hidden (it paints nothing), a browser without paint timing, a document whose body has no
// text once parsed (Next's shell for a page that failed to render, which the code then draws); and after
// LOADER_TIMEOUT_MS in any case. The chunks are downloaded after the first paint, not beside it: on a phone on mobile data the
// stylesheet then has the link to itself and the amount is painted sooner, and the page's code starts
// downloading when the customer can already read what they are paying; a preload next to the stylesheet
// would finish before the paint on a fast link and be counted as part of it by Lighthouse's simulation.
//
// The rewrite works on bytes as latin1 text (every byte one character), so UTF-8 text passes through
// unchanged however the stream is cut; a tag cut between two writes is held back until it is whole. Only
// `<script>` elements with `async`, no body and a `src` under /_next/static/ are touched; `nomodule`
// polyfills, inline scripts and everything else pass through as written; likewise only preloads with
// `as="script"` and an href under /_next/static/.

/** Where the app's chunks are served from: only tags naming a URL under it are rewritten. */
const CHUNK_PREFIX = "/_next/static/";

/** After this long the loader adds the scripts even if no paint has been reported. */
export const LOADER_TIMEOUT_MS = 2_000;

/**
 * The loader, defined by the first rewritten tag (and again, keeping the first definition, by a tag of another
 * nonce). `self.__paintFirst([src, crossOrigin, integrity, run])` queues a script (run = 1) or a preload
 * (run = 0) until the first contentful paint, and adds it at once after. The inline scripts carry no nonce in
 * their text: the loader gives its own (`currentScript.nonce`) to what it adds.
 */
export const LOADER_SOURCE = `(function(w,d){if(w.__paintFirst)return;var q=[],done=false,cs=d.currentScript,n=cs&&cs.nonce;function add(s){var e=d.createElement(s[3]?"script":"link");if(s[3]){e.src=s[0];e.async=true}else{e.rel="preload";e.as="script";e.href=s[0]}if(s[1]!==null)e.crossOrigin=s[1];if(s[2])e.integrity=s[2];if(n)e.nonce=n;d.head.appendChild(e)}function go(){if(done)return;done=true;for(var i=0;i<q.length;i++)add(q[i]);q.length=0}w.__paintFirst=function(s){if(done)add(s);else q.push(s)};var P=w.PerformanceObserver,t=P&&P.supportedEntryTypes||[];if(d.visibilityState!=="visible"||t.indexOf("paint")<0){go();return}try{var o=new P(function(l){if(l.getEntriesByName("first-contentful-paint").length){o.disconnect();go()}});o.observe({type:"paint",buffered:true})}catch(e){go();return}d.addEventListener("visibilitychange",go,{once:true});d.addEventListener("DOMContentLoaded",function(){var b=d.body;if(!b||!b.textContent.trim())go()});setTimeout(go,${LOADER_TIMEOUT_MS})})(self,document);`;

const SCRIPT_ATTRIBUTES = new Set(["src", "async", "nonce", "crossorigin", "integrity"]);
const PRELOAD_ATTRIBUTES = new Set([
  "rel",
  "as",
  "href",
  "fetchpriority",
  "nonce",
  "crossorigin",
  "integrity",
]);

/**
 * `<script …></script>` with nothing inside (the only form React writes for a script with a src), or a
 * `<link …>` start tag.
 */
const ELEMENT = /<script\b([^>]*)><\/script>|<link\b([^>]*?)\/?>/gi;
const ATTRIBUTE = /\s([^\s"'=<>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

/** @param {string} text attributes as written in a start tag */
function parseAttributes(text) {
  /** @type {Map<string, string>} */
  const attributes = new Map();
  for (const m of text.matchAll(ATTRIBUTE)) {
    const name = (m[1] ?? "").toLowerCase();
    if (!attributes.has(name)) attributes.set(name, m[2] ?? m[3] ?? m[4] ?? "");
  }
  return attributes;
}

/**
 * The HTML character references React may write in a URL attribute, decoded, so the loader's JavaScript
 * string holds the URL itself.
 * @param {string} value
 */
function decodeEntities(value) {
  return value.replace(/&(amp|quot|#39|#x27|lt|gt);/g, (_, name) =>
    name === "amp" ? "&" : name === "quot" ? '"' : name === "lt" ? "<" : name === "gt" ? ">" : "'",
  );
}

/** A JavaScript string literal safe inside an inline <script> (no `</script`, no `<!--`). */
function jsString(value) {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/**
 * The replacement for a `<script>` (`kind` "script") or `<link>` element, or null when it is left as it is.
 * @param {"script" | "link"} kind
 * @param {Map<string, string>} a the start tag's attributes (parseAttributes)
 * @param {boolean} withLoader whether this call also defines the loader
 */
function rewriteElement(kind, a, withLoader) {
  const run = kind === "script";
  const url = run ? a.get("src") : a.get("href");
  if (url === undefined) return null;
  if (run && !a.has("async")) return null;
  if (!run && (a.get("rel")?.toLowerCase() !== "preload" || a.get("as")?.toLowerCase() !== "script"))
    return null;
  // Only the forms React writes for a chunk; anything else (a type, a nomodule, an id …) is left alone.
  const known = run ? SCRIPT_ATTRIBUTES : PRELOAD_ATTRIBUTES;
  for (const name of a.keys()) if (!known.has(name)) return null;
  const src = decodeEntities(url);
  if (!src.startsWith(CHUNK_PREFIX)) return null;
  const nonce = a.get("nonce");
  const crossOrigin = a.get("crossorigin");
  const integrity = a.get("integrity");
  const call = `self.__paintFirst([${jsString(src)},${
    crossOrigin !== undefined ? jsString(decodeEntities(crossOrigin)) : "null"
  },${jsString(integrity ? decodeEntities(integrity) : "")},${run ? 1 : 0}])`;
  const nonceAttr = nonce ? ` nonce="${nonce}"` : "";
  return `<script${nonceAttr}>${withLoader ? LOADER_SOURCE : ""}${call}</script>`;
}

/**
 * The loader calls in a rewritten page, in document order, as `[src, crossOrigin, integrity, run]` (run = 1:
 * a script the page runs; 0: a chunk it only preloads). For what reads the page: its tests, bench:page.
 * @param {string} html
 * @returns {[string, string | null, string, number][]}
 */
export function loaderCalls(html) {
  return [...html.matchAll(/self\.__paintFirst\((\[[^\]]*\])\)/g)].map((m) => JSON.parse(m[1] ?? "[]"));
}

/**
 * A streaming rewriter for one HTML document. `push` takes the next bytes and returns what can be sent now;
 * `end` returns what is left.
 */
export function createPaintFirstRewriter() {
  let carry = "";
  /** The nonce of the inline script that defined the loader (null: not yet defined). */
  let loaderNonce = null;

  /** @param {string} text */
  function transform(text) {
    return text.replace(ELEMENT, (whole, scriptAttributes, linkAttributes) => {
      const kind = scriptAttributes !== undefined ? "script" : "link";
      const attributes = parseAttributes(scriptAttributes ?? linkAttributes ?? "");
      const nonce = attributes.get("nonce") ?? "";
      // The loader is defined again (it keeps its first definition) by a script of another nonce: one the
      // page's Content-Security-Policy refused would leave every later call without it.
      const replacement = rewriteElement(kind, attributes, loaderNonce !== nonce);
      if (replacement === null) return whole;
      loaderNonce = nonce;
      return replacement;
    });
  }

  /**
   * Where the text stops being safe to rewrite: the start of a `<script` element whose `</script>` has not
   * arrived, or a tag cut short at the very end.
   * @param {string} text
   */
  function holdFrom(text) {
    let cut = text.length;
    const open = text.lastIndexOf("<script");
    if (open >= 0 && text.indexOf("</script>", open) < 0) cut = open;
    const lt = text.lastIndexOf("<");
    if (lt > text.lastIndexOf(">")) cut = Math.min(cut, lt);
    return cut;
  }

  return {
    /** @param {Buffer} chunk */
    push(chunk) {
      const text = carry + chunk.toString("latin1");
      const cut = holdFrom(text);
      carry = text.slice(cut);
      return Buffer.from(transform(text.slice(0, cut)), "latin1");
    },
    end() {
      const rest = carry;
      carry = "";
      return Buffer.from(transform(rest), "latin1");
    },
  };
}

/**
 * Rewrites the HTML answers written to `res` (anything else passes untouched). Install it after any
 * compression wrapper, so that it sees the bytes the app writes; it drops a Content-Length, which the
 * rewrite makes wrong.
 * @param {import("node:http").ServerResponse} res
 */
export function paintFirst(res) {
  const { writeHead, write, end } = res;
  /** @type {ReturnType<typeof createPaintFirstRewriter> | null | undefined} */
  let rewriter;

  function decide() {
    if (rewriter !== undefined) return;
    const type = String(res.getHeader("content-type") ?? "");
    const html =
      /^text\/html\b/i.test(type) &&
      res.statusCode !== 204 &&
      res.statusCode !== 304 &&
      !res.getHeader("content-encoding");
    rewriter = html ? createPaintFirstRewriter() : null;
    if (html) res.removeHeader("content-length");
  }

  /** @type {typeof res.writeHead} */
  res.writeHead = /** @type {any} */ (
    (/** @type {number} */ status, /** @type {any[]} */ ...rest) => {
      if (rewriter === undefined) {
        // writeHead(status[, message][, headers]): headers given here are not visible through getHeader yet.
        const headers = typeof rest[0] === "string" ? rest[1] : rest[0];
        if (headers && typeof headers === "object" && !Array.isArray(headers)) {
          for (const [name, value] of Object.entries(headers))
            if (value !== undefined) res.setHeader(name, value);
          rest = typeof rest[0] === "string" ? [rest[0]] : [];
        }
        res.statusCode = status;
        decide();
      }
      return writeHead.call(res, status, ...rest);
    }
  );

  /**
   * @param {unknown} chunk
   * @param {unknown} encoding
   */
  function toBuffer(chunk, encoding) {
    if (Buffer.isBuffer(chunk)) return chunk;
    if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    return Buffer.from(
      String(chunk),
      typeof encoding === "string" ? /** @type {BufferEncoding} */ (encoding) : "utf8",
    );
  }

  res.write = /** @type {any} */ (
    (/** @type {unknown} */ chunk, /** @type {unknown} */ encoding, /** @type {unknown} */ cb) => {
      decide();
      if (!rewriter)
        return write.call(
          res,
          /** @type {any} */ (chunk),
          /** @type {any} */ (encoding),
          /** @type {any} */ (cb),
        );
      const callback = typeof encoding === "function" ? encoding : cb;
      const out = rewriter.push(toBuffer(chunk, encoding));
      if (out.length === 0) {
        if (typeof callback === "function") process.nextTick(callback);
        return true;
      }
      // (compression's write takes no callback; without compression, Node's does.)
      return write.call(res, out, /** @type {any} */ (callback));
    }
  );

  res.end = /** @type {any} */ (
    (/** @type {unknown} */ chunk, /** @type {unknown} */ encoding, /** @type {unknown} */ cb) => {
      if (typeof chunk === "function") {
        cb = chunk;
        chunk = undefined;
      } else if (typeof encoding === "function") {
        cb = encoding;
        encoding = undefined;
      }
      decide();
      if (!rewriter)
        return end.call(
          res,
          /** @type {any} */ (chunk),
          /** @type {any} */ (encoding),
          /** @type {any} */ (cb),
        );
      const head =
        chunk === undefined || chunk === null ? Buffer.alloc(0) : rewriter.push(toBuffer(chunk, encoding));
      const out = Buffer.concat([head, rewriter.end()]);
      return end.call(res, /** @type {any} */ (out.length ? out : undefined), /** @type {any} */ (cb));
    }
  );
}
