// Paygate inline checkout: the hosted checkout in a modal frame over the merchant's own page.
// The same code is served as a classic script at /v1/inline.js (window.Paygate) and as this ES module at
// /v1/inline.mjs. No dependencies. docs/guides/embed-the-checkout.md describes its use and its messages.
export const VERSION = "1.0.0";

const PROTOCOL = "paygate.inline";
const PROTOCOL_VERSION = 1;
const TYPES = ["loaded", "pending", "success", "cancel", "error", "close", "escape"];
const REFERENCE = /^[A-Za-z0-9_-]{1,100}$/;
const PHONE = "(max-width: 640px)";

// Where the checkout is served: the classic script's own address (read while it runs); a bundle passes
// baseUrl; /v1/inline.mjs reads its own address (import.meta.url) instead.
const defaultBase = (typeof document !== "undefined" && document.currentScript?.src) || "";

/** The service's origin from an http(s) address, or "". */
function originOf(url) {
  if (!url) return "";
  try {
    const u = new URL(url, document.baseURI);
    return u.protocol === "https:" || u.protocol === "http:" ? u.origin : "";
  } catch {
    return "";
  }
}

/** The dimmed page behind the dialog: a constructed sheet (a page's CSP does not stop one); skipped where unknown. */
let backdrop = false;
function dim(doc) {
  if (backdrop) return;
  backdrop = true;
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync("dialog[data-paygate-inline]::backdrop{background:rgba(15,23,42,.6)}");
    doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet];
  } catch {
    // An older browser: its own backdrop.
  }
}

function css(el, styles) {
  for (const name in styles) el.style.setProperty(name, styles[name]);
  return el;
}

/**
 * Opens the checkout of `accessCode` (from initialize, made by the merchant's server) over the page.
 * options: baseUrl (the service, default the script's own origin), label, loadTimeout (ms before onError
 * "load_failed" when the checkout never says it loaded), and the callbacks onLoad, onPending, onSuccess,
 * onCancel, onError, onClose, each called with {reference, status, ...}. Returns {close()}.
 */
export function open(accessCode, options = {}) {
  const service = originOf(options.baseUrl || defaultBase);
  if (!service) throw new Error("Paygate.open: no baseUrl (the address of the Paygate service)");
  if (typeof accessCode !== "string" || !/^[0-9A-Za-z]{8,64}$/.test(accessCode))
    throw new Error("Paygate.open: accessCode must be the access code initialize answered");

  const call = (name, data) => {
    const fn = options[name];
    if (typeof fn !== "function") return;
    try {
      fn(data);
    } catch (err) {
      setTimeout(() => {
        throw err;
      });
    }
  };

  const doc = document;
  const previous = doc.activeElement;
  const root = doc.documentElement;
  const overflow = root.style.overflow;
  const dialog = doc.createElement("dialog");
  const close = doc.createElement("button");
  const frame = doc.createElement("iframe");
  const state = { reference: null, status: null, loaded: false, done: false, told: {} };

  dialog.setAttribute("aria-modal", "true");
  dialog.setAttribute("aria-label", options.label || "Checkout");
  dialog.setAttribute("data-paygate-inline", VERSION);
  close.type = "button";
  close.textContent = "\u00d7";
  close.setAttribute("aria-label", "Close checkout");
  frame.title = options.label || "Checkout";
  frame.src = `${service}/pay/${accessCode}?embed=1&origin=${encodeURIComponent(location.origin)}`;
  // The checkout may open a window (a bank's page) and print its receipt; it can never navigate this page.
  frame.setAttribute(
    "sandbox",
    "allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox allow-modals",
  );
  frame.setAttribute("allow", "payment; clipboard-write");
  frame.referrerPolicy = "origin";

  // A bar with the close button above the checkout (never over it), the checkout filling the rest.
  const bar = doc.createElement("div");
  css(dialog, {
    display: "flex",
    "flex-direction": "column",
    padding: "0",
    border: "0",
    overflow: "hidden",
    background: "#f8fafc",
    "box-shadow": "0 20px 60px rgba(15,23,42,.35)",
  });
  css(bar, {
    display: "flex",
    "justify-content": "flex-end",
    padding: "4px",
    background: "#fff",
    "border-bottom": "1px solid #e2e8f0",
  });
  css(close, {
    width: "44px",
    height: "44px",
    "font-size": "28px",
    "line-height": "1",
    border: "0",
    "border-radius": "8px",
    background: "transparent",
    color: "#0f172a",
    cursor: "pointer",
  });
  css(frame, { display: "block", flex: "1", "min-height": "0", width: "100%", border: "0" });

  // A phone: the whole screen. Larger: a centred panel with the page dimmed behind it.
  const media = window.matchMedia(PHONE);
  const layout = () => {
    const phone = media.matches;
    css(dialog, {
      width: phone ? "100vw" : "min(560px, calc(100vw - 32px))",
      height: phone ? "100dvh" : "min(860px, calc(100dvh - 32px))",
      "max-width": "100vw",
      "max-height": "100dvh",
      margin: phone ? "0" : "auto",
      "border-radius": phone ? "0" : "16px",
    });
  };
  layout();
  media.addEventListener("change", layout);

  const post = (type) =>
    frame.contentWindow?.postMessage({ protocol: PROTOCOL, version: PROTOCOL_VERSION, type }, service);

  const finish = () => {
    if (state.done) return;
    state.done = true;
    clearTimeout(timer);
    window.removeEventListener("message", onMessage);
    media.removeEventListener("change", layout);
    if (dialog.open) dialog.close();
    dialog.remove();
    root.style.overflow = overflow;
    if (previous && typeof previous.focus === "function") previous.focus();
    call("onClose", { reference: state.reference, status: state.status });
  };

  const onMessage = (event) => {
    // Only the checkout in this frame, from the service's exact origin, in the protocol's shape.
    if (event.origin !== service || event.source !== frame.contentWindow) return;
    const m = event.data;
    if (!m || typeof m !== "object" || m.protocol !== PROTOCOL || m.version !== PROTOCOL_VERSION) return;
    if (!TYPES.includes(m.type) || typeof m.reference !== "string" || !REFERENCE.test(m.reference)) return;
    if (m.status !== undefined && typeof m.status !== "string") return;
    state.reference = m.reference;
    if (m.status) state.status = m.status;
    const data = { reference: m.reference, status: state.status };
    if (typeof m.channel === "string") data.channel = m.channel;
    if (m.type === "loaded") {
      if (state.loaded) return;
      state.loaded = true;
      clearTimeout(timer);
      call("onLoad", data);
      // The keyboard moves to the checkout, unless the customer already moved it.
      if (doc.activeElement === close || doc.activeElement === doc.body) {
        frame.focus();
        post("focus");
      }
    } else if (m.type === "close" || m.type === "escape") {
      finish();
    } else {
      // Each outcome once (a pending status once each: a transfer, then a bank payment, says both).
      const key = m.type === "pending" ? `pending:${m.status}` : m.type;
      if (state.told[key]) return;
      state.told[key] = true;
      if (m.type === "error") {
        data.code = typeof m.code === "string" ? m.code : "payment_failed";
        data.message = typeof m.message === "string" ? m.message : "The payment failed.";
      }
      call(
        { pending: "onPending", success: "onSuccess", cancel: "onCancel", error: "onError" }[m.type],
        data,
      );
    }
  };

  // The checkout never said it loaded: the frame was refused (this page's origin is not among the merchant's
  // embed origins, or this page's own CSP forbids the frame) or the network failed.
  const timer = setTimeout(() => {
    if (!state.loaded && !state.done)
      call("onError", {
        reference: null,
        status: null,
        code: "load_failed",
        message: "The checkout did not load: is this site's origin among your embed origins?",
      });
  }, options.loadTimeout || 20000);

  window.addEventListener("message", onMessage);
  close.addEventListener("click", finish);
  // Escape on this page (the close button focused): the dialog's own cancel, which closes through finish.
  dialog.addEventListener("cancel", (event) => {
    event.preventDefault();
    finish();
  });
  // A browser may close the dialog without a cancel event (a repeated Escape): the same end.
  dialog.addEventListener("close", finish);
  dim(doc);
  bar.append(close);
  dialog.append(bar, frame);
  doc.body.append(dialog);
  root.style.overflow = "hidden";
  // showModal: the rest of the page is inert (focus stays in the dialog) and the dialog is in the top layer.
  dialog.showModal();
  close.focus();
  return { close: finish };
}
