"use client";

import { useActionState, useEffect, useState } from "react";
import { useHydrated } from "@/components/ui/use-hydrated";
import { type DemoFormState, startDemoCheckout } from "./actions";

type Words = {
  chooseProduct: string;
  email: string;
  fullName: string;
  optional: string;
  continue: string;
  payInPopup: string;
  errors: Record<"noKey" | "chooseProduct" | "email" | "notCreated" | "popupFailed", string>;
};

const START: DemoFormState = {
  problem: null,
  detail: null,
  email: "customer@example.com",
  name: "",
  popup: null,
};

/**
 * "Pay in a popup": the checkout over this page, by the embedded checkout's ES module (the same code as
 * /v1/inline.js; docs/guides/embed-the-checkout.md). Whatever happens, the store's return page verifies the
 * payment on the server before it "fulfils": the events only say when to look.
 */
function usePopup(
  popup: DemoFormState["popup"],
  lang: string | null,
  onFailed: (popup: DemoFormState["popup"]) => void,
) {
  useEffect(() => {
    if (!popup) return;
    let handle: { close: () => void } | null = null;
    let gone = false;
    void import("@/sdk/inline/paygate-inline.mjs").then(({ open }) => {
      if (gone) return;
      const back = (reference: string | null) => {
        if (!reference) return;
        const query = new URLSearchParams({ reference, ...(lang ? { lang } : {}) });
        window.location.assign(`/demo/return?${query}`);
      };
      let reference: string | null = null;
      handle = open(popup.accessCode, {
        baseUrl: window.location.origin,
        onLoad: (e) => {
          reference = e.reference;
        },
        onSuccess: (e) => back(e.reference),
        onCancel: (e) => back(e.reference),
        // Under way: once the customer closes the popup, the return page says where it stands.
        onPending: (e) => {
          reference = e.reference;
        },
        onError: (e) => {
          if (e.code === "load_failed") {
            handle?.close();
            onFailed(popup);
          }
        },
        onClose: (e) => {
          if (e.status && e.status !== "pending") back(e.reference ?? reference);
        },
      });
    });
    return () => {
      gone = true;
      handle?.close();
    };
  }, [popup, lang, onFailed]);
}

/**
 * The demo store's order form: posted to the server action `startDemoCheckout`, by the browser itself before
 * the page's code runs (or without it) and by the page's code after. A problem is shown from the store's own
 * catalogue (and the payment service's answer to the store's own request), never from the address.
 */
export function DemoForm({
  products,
  words,
  lang,
}: {
  products: { id: string; name: string; price: string }[];
  words: Words;
  lang: string | null;
}) {
  const [state, action, pending] = useActionState(startDemoCheckout, START);
  const [failed, setFailed] = useState<DemoFormState["popup"]>(null);
  usePopup(state.popup, lang, setFailed);
  const hydrated = useHydrated();
  const problem =
    (state.problem && [words.errors[state.problem], state.detail].filter(Boolean).join(" ")) ||
    (failed && failed === state.popup ? words.errors.popupFailed : null);
  return (
    <form action={action} className="mt-8 space-y-6 rounded-xl bg-white p-5 ring-1 ring-slate-200">
      {lang && <input type="hidden" name="lang" value={lang} />}
      {problem && (
        <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800 ring-1 ring-red-200">
          {problem}
        </p>
      )}
      <fieldset>
        <legend className="text-lg font-semibold text-slate-900">{words.chooseProduct}</legend>
        <div className="mt-3 space-y-2">
          {products.map((p, i) => (
            <label
              key={p.id}
              className="flex cursor-pointer items-center justify-between gap-3 rounded-lg p-3 ring-1 ring-slate-200 has-checked:ring-2 has-checked:ring-teal-700"
            >
              <span className="flex items-center gap-3">
                <input
                  type="radio"
                  name="product"
                  value={p.id}
                  defaultChecked={i === 0}
                  className="size-4 accent-teal-700"
                />
                <span className="text-slate-900">{p.name}</span>
              </span>
              <span className="font-semibold text-slate-900 tabular-nums">{p.price}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <div>
        <label htmlFor="demo-email" className="block text-sm font-medium text-slate-800">
          {words.email}
        </label>
        <input
          id="demo-email"
          name="email"
          type="email"
          autoComplete="email"
          required
          defaultValue={state.email}
          className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2.5 text-base"
        />
      </div>
      <div>
        <label htmlFor="demo-name" className="block text-sm font-medium text-slate-800">
          {words.fullName} <span className="font-normal text-slate-600">{words.optional}</span>
        </label>
        <input
          id="demo-name"
          name="name"
          autoComplete="name"
          defaultValue={state.name}
          className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2.5 text-base"
        />
      </div>
      <button
        type="submit"
        disabled={pending}
        className="w-full rounded-lg bg-teal-700 px-4 py-3 text-base font-semibold text-white shadow-sm hover:bg-teal-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
      >
        {words.continue}
      </button>
      {/* The popup needs the page's code: the button is there once it runs. */}
      {hydrated && (
        <button
          type="submit"
          name="mode"
          value="popup"
          disabled={pending}
          className="w-full rounded-lg bg-white px-4 py-3 text-base font-semibold text-teal-800 ring-1 ring-teal-700 hover:bg-teal-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
        >
          {words.payInPopup}
        </button>
      )}
    </form>
  );
}
