import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { LanguageMenu } from "@/components/ui/language-menu";
import { DEMO_PRODUCTS, demoKey } from "@/lib/checkout/demo-store";
import { formatMoney } from "@/lib/checkout/format";
import { env } from "@/lib/env";
import { messagesFor } from "@/lib/i18n/messages";
import { requestLocale } from "@/lib/i18n/request-locale";
import { startDemoCheckout } from "./actions";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = messagesFor(await requestLocale());
  return { title: { absolute: t.demo.title }, robots: { index: false } };
}

/**
 * A demo merchant's shop (test mode only): pick a product, pay on the hosted checkout, come back to
 * /demo/return, which verifies the payment server-side before "fulfilling".
 */
export default async function DemoStorePage({ searchParams }: { searchParams: Promise<{ error?: string }> }) {
  const key = await demoKey();
  if (!key.ok && key.reason === "live_mode") notFound();
  const { error } = await searchParams;
  // Where the server keeps the demo key (DEMO_MERCHANT_FILE): named so a moved file is found.
  const file = env().DEMO_MERCHANT_FILE;
  const locale = await requestLocale();
  const t = messagesFor(locale);
  const d = t.demo;
  const problem = error && (d.errors[error as keyof typeof d.errors] ?? error);

  return (
    <main className="mx-auto w-full max-w-xl px-4 py-8 sm:py-12">
      <LanguageMenu locale={locale} label={t.page.language} />
      <p className="mt-3 text-sm font-semibold tracking-wide text-teal-800 uppercase">{d.eyebrow}</p>
      <h1 className="mt-1 text-3xl font-semibold tracking-tight text-slate-900">{d.title}</h1>
      <p className="mt-2 text-slate-700">{d.intro}</p>

      {!key.ok ? (
        <section className="mt-8 rounded-xl bg-white p-5 ring-1 ring-slate-200" aria-labelledby="setup">
          <h2 id="setup" className="text-lg font-semibold text-slate-900">
            {d.notSetUp}
          </h2>
          <p className="mt-2 text-slate-700">
            {key.reason === "missing" ? `There is no ${file} on this server.` : `${file} could not be read.`}{" "}
            The server writes it when it starts on an empty staging database with SEED_DEMO=1 (the default):
          </p>
          <pre className="mt-3 overflow-x-auto rounded-lg bg-slate-900 p-3 text-sm text-slate-100">
            {`rm -rf data/          # or point DATABASE_URL at a new file\nnpm start             # creates Demo Store and ${file}`}
          </pre>
          <p className="mt-2 text-sm text-slate-700">
            The file holds the demo merchant&apos;s test secret key; it stays on the server and never reaches
            the browser.
          </p>
        </section>
      ) : (
        <form
          action={startDemoCheckout}
          className="mt-8 space-y-6 rounded-xl bg-white p-5 ring-1 ring-slate-200"
        >
          {locale !== "en" && <input type="hidden" name="lang" value={locale} />}
          {problem && (
            <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800 ring-1 ring-red-200">
              {problem.slice(0, 300)}
            </p>
          )}
          <fieldset>
            <legend className="text-lg font-semibold text-slate-900">{d.chooseProduct}</legend>
            <div className="mt-3 space-y-2">
              {DEMO_PRODUCTS.map((p, i) => (
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
                    <span className="text-slate-900">{d.products[p.id]}</span>
                  </span>
                  <span className="font-semibold text-slate-900 tabular-nums">
                    {formatMoney(p.amount, "NGN", locale)}
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          <div>
            <label htmlFor="demo-email" className="block text-sm font-medium text-slate-800">
              {d.email}
            </label>
            <input
              id="demo-email"
              name="email"
              type="email"
              autoComplete="email"
              required
              defaultValue="customer@example.com"
              className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2.5 text-base"
            />
          </div>
          <div>
            <label htmlFor="demo-name" className="block text-sm font-medium text-slate-800">
              {d.fullName} <span className="font-normal text-slate-600">{d.optional}</span>
            </label>
            <input
              id="demo-name"
              name="name"
              autoComplete="name"
              className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2.5 text-base"
            />
          </div>
          <button
            type="submit"
            className="w-full rounded-lg bg-teal-700 px-4 py-3 text-base font-semibold text-white shadow-sm hover:bg-teal-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
          >
            {d.continue}
          </button>
        </form>
      )}
    </main>
  );
}
