"use client";

import dynamic from "next/dynamic";
import {
  type ComponentType,
  createContext,
  type ReactNode,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { FocusStepsContext, QuietMount } from "@/components/ui/step-heading";
import { alertWarning } from "@/components/ui/styles";
import { type TabItem, Tabs } from "@/components/ui/tabs";
import { STEP_WINDOW } from "@/lib/checkout/step-window";
import { type Channel, type CheckoutRecord, type CheckoutView, TERMINAL } from "@/lib/checkout/types";
import { formatMoney, isZeroAmount } from "@/lib/i18n/format";
import { fmt, type Locale } from "@/lib/i18n/locales";
import type { CheckoutMessages } from "@/lib/i18n/messages/en";
import { customerTotal } from "./amounts";
import { type ApiError, loadCalls } from "./api";
import { CancelButton } from "./cancel-toggle";
import { CheckoutContext, type CheckoutContextValue, SelectedChannelContext } from "./context";
import { Spinner } from "./spinner";
import type { Activity } from "./status-poll";

/**
 * Each channel's panel is a chunk of its own, and only the one the page opens on comes with the page. Each is
 * a next/dynamic component with no loading state (`PANEL`): next/dynamic then puts no Suspense boundary around
 * it, and the one the page opens on is rendered without one, so the server renders it into the HTML whole (a boundary would let React stream a large
 * panel as a hidden part only JavaScript shows), and it preloads the panel's chunk with the page's own. The
 * others are loaded here, fetched while the browser is idle before anyone clicks their tab, and show the
 * loading line (a Suspense boundary each) if a tab is opened before its chunk arrives. Until the page's code
 * has run, the page is the server's HTML, whose tabs are links and whose forms post themselves. (Imported by
 * the page's server component instead, the four panels would be one chunk of the page's.)
 */
const loading = () => (
  <p className="flex items-center gap-2 text-sm text-slate-700">
    <Spinner /> <LoadingText />
  </p>
);
/** The loading line in the page's language (a dynamic() placeholder gets no props). */
function LoadingText() {
  const t = useContext(LoadingContext);
  return <>{t}</>;
}
const LoadingContext = createContext("Loading…");
/** A panel that arrives after its tab was selected shows up quietly too: focus stays on the tab. */
function quiet<P extends object>(Panel: ComponentType<P>): ComponentType<P> {
  return function QuietPanel(props: P) {
    return (
      <QuietMount>
        <Panel {...props} />
      </QuietMount>
    );
  };
}
/**
 * The panels whose chunk has arrived, as plain components. A tab opened after that renders its panel at once:
 * through next/dynamic it would suspend for a moment even with its chunk at hand (the loader's promise is
 * new), and React holds a boundary's fallback on screen for a few hundred milliseconds before it reveals
 * what arrived, so the switch would wait for nothing.
 */
const LOADED: Partial<Record<Channel, ComponentType>> = {};
const loadCard = () =>
  import("./card-panel").then((m) => {
    LOADED.card ??= quiet(m.CardPanel);
  });
const loadTransfer = () =>
  import("./transfer-panel").then((m) => {
    LOADED.bank_transfer ??= quiet(m.TransferPanel);
  });
const loadBankPayment = () =>
  import("./bank-payment-panel").then((m) => {
    LOADED.bank_payment ??= quiet(m.BankPaymentPanel);
  });
const loadUssd = () =>
  import("./ussd-panel").then((m) => {
    LOADED.ussd ??= quiet(m.UssdPanel);
  });
// Each import() is written out in its dynamic() call: that is how Next finds the chunk to preload with a page
// that renders it on the server.
const CardPanel = dynamic(() => import("./card-panel").then((m) => quiet(m.CardPanel)));
const TransferPanel = dynamic(() => import("./transfer-panel").then((m) => quiet(m.TransferPanel)));
const BankPaymentPanel = dynamic(() => import("./bank-payment-panel").then((m) => quiet(m.BankPaymentPanel)));
const UssdPanel = dynamic(() => import("./ussd-panel").then((m) => quiet(m.UssdPanel)));
const PANEL: Record<Channel, ComponentType> = {
  card: CardPanel,
  bank_transfer: TransferPanel,
  bank_payment: BankPaymentPanel,
  ussd: UssdPanel,
};
/**
 * What the first screen does not need comes after it, TanStack Query with it: the status poll (browser
 * only, it starts once the page is up) and the cancel button's request (rendered on the server).
 */
const loadPoll = () => import("./status-poll");
const StatusPoll = dynamic(() => loadPoll().then((m) => m.StatusPoll), { ssr: false });
const loadCancel = () => import("./cancel-payment");
const CancelPayment = dynamic(() => import("./cancel-payment").then((m) => m.CancelPayment));
/** The outcome (paid, failed, cancelled) and its receipt: a chunk of its own, fetched once the page is idle. */
const loadOutcome = () => import("./outcome");
const Outcome = dynamic(() => import("./outcome").then((m) => m.Outcome));
/** Only an embedded checkout loads the messages to its merchant's page. */
const EmbedBridge = dynamic(() => import("./embed-bridge").then((m) => m.EmbedBridge), { ssr: false });
/**
 * A panel opened after the first render: the loaded component when its chunk is here (no boundary, nothing
 * to wait for), else next/dynamic's under a Suspense boundary with the loading line. Chosen once, when the
 * panel mounts, so a panel never changes component (and loses what the customer typed) once it is shown.
 */
function LaterPanel({ channel }: { channel: Channel }) {
  const [Loaded] = useState(() => LOADED[channel]);
  if (Loaded) return <Loaded />;
  const Panel = PANEL[channel];
  return (
    <Suspense fallback={loading()}>
      <Panel />
    </Suspense>
  );
}
const PRELOAD: Record<Channel, () => Promise<unknown>> = {
  card: loadCard,
  bank_transfer: loadTransfer,
  bank_payment: loadBankPayment,
  ussd: loadUssd,
};

type Frame = {
  view: CheckoutView;
  /** The page's language and its checkout strings, chosen on the server (lib/checkout/request-locale.ts). */
  locale: Locale;
  messages: CheckoutMessages;
  /** The header's top: the merchant's name and logo, the description (rendered on the server). */
  intro: ReactNode;
  /** A subscription's terms under the amount (initialize with `plan`), worded by the page; null otherwise. */
  terms: string | null;
  /** Under the amount: who is paying. */
  payer: ReactNode;
  /** The tab the page opens on (lib/checkout/initial-channel.ts). */
  firstChannel: Channel;
  /** The address's query the tabs' links keep (`?lang=`). */
  keep: Record<string, string>;
  /** What a form the browser posted itself led to (context.ts `posted`). */
  posted: CheckoutContextValue["posted"];
  /** `?cancel=confirm`: the cancel question is open (its link, before the page's code runs). */
  confirmCancel: boolean;
  /** Opened embedded by this origin of the merchant's (lib/checkout/embed-frame.ts); null otherwise. */
  embedOrigin: string | null;
};

/** The header's amount: the total on the chosen channel, with the price and the fee as its parts. */
function AmountSummary({
  view,
  record,
  channel,
  t,
  locale,
}: {
  view: CheckoutView;
  record: CheckoutRecord;
  channel: Channel;
  t: CheckoutMessages;
  locale: Locale;
}) {
  const money = (amount: string) => formatMoney(amount, view.currency, locale);
  const { total, fee } = customerTotal(view, record, channel);
  const paid = record.status === "success";
  return (
    <div className="mt-3">
      <p
        className="text-3xl font-semibold tracking-tight text-slate-900 tabular-nums"
        data-testid="amount-total"
      >
        <span className="sr-only">{paid ? t.totalPaid : t.totalToPay} </span>
        {money(total)}
      </p>
      <p className="mt-1 text-sm text-slate-700 tabular-nums" data-testid="amount-parts">
        {isZeroAmount(fee)
          ? t.noFee
          : fmt(t.amountPlusFee, {
              amount: money(view.amount),
              fee: money(fee),
              feeName: t.feeNames[channel],
            })}
      </p>
    </div>
  );
}

/**
 * The hosted checkout: the header with the amount, the payment-method tabs and the active channel's panel,
 * rendered on the server; the status comes from the server's record, then from the status poll.
 */
export function Checkout({
  view,
  intro,
  terms,
  payer,
  locale,
  messages: t,
  firstChannel,
  keep,
  posted,
  confirmCancel,
  embedOrigin,
}: Frame) {
  const activity = useRef<Activity>({ status: view.record.status, at: Date.now() });
  const ready = useRef(false);
  const tablist = useRef<HTMLDivElement>(null);

  const [record, setRecord] = useState<CheckoutRecord>(view.record);
  const [pollError, setPollError] = useState<ApiError | null>(null);
  const recordNow = useRef(record);
  recordNow.current = record;
  const expired = pollError?.code === "invalid_access_code";

  const refresh = useCallback(() => {
    activity.current = { ...activity.current, at: Date.now() };
    void loadPoll().then((m) => m.pollNow(view.accessCode));
  }, [view.accessCode]);

  const applyStatus = useCallback(
    async (patch: Partial<CheckoutRecord>) => {
      const poll = await loadPoll();
      setRecord(await poll.applyToStatus(view.accessCode, recordNow.current, patch));
      refresh();
    },
    [view.accessCode, refresh],
  );

  const focusTabs = useCallback(() => {
    tablist.current?.querySelector<HTMLElement>('[aria-selected="true"]')?.focus();
  }, []);

  // What the page opened on is in its HTML (no Suspense boundary); reached later, it may show the loading line.
  const opensOnOutcome = useRef(TERMINAL.has(view.record.status));
  const [tab, setTab] = useState<Channel>(firstChannel);
  const hrefFor = useCallback((id: string) => `?${new URLSearchParams({ ...keep, channel: id })}`, [keep]);

  // What screen readers hear when the status changes (not on the first render).
  const [announcement, setAnnouncement] = useState("");
  const lastStatus = useRef(record.status);
  // Read through a ref: a change of language alone announces nothing.
  const announce = useRef(t.announce);
  announce.current = t.announce;
  useEffect(() => {
    if (record.status === lastStatus.current) return;
    lastStatus.current = record.status;
    setAnnouncement(announce.current[record.status]);
  }, [record.status]);

  // Children's mount effects run before this one: steps rendered with the page keep focus where it is.
  useEffect(() => {
    ready.current = true;
  }, []);

  // The window an embedded checkout opened for a bank's page, back on the checkout: the bank is done with it
  // and the embedded checkout (which polls) shows the outcome; this window closes itself.
  useEffect(() => {
    if (!embedOrigin && window.name === STEP_WINDOW) window.close();
  }, [embedOrigin]);

  const embed = useMemo(
    () =>
      embedOrigin
        ? {
            origin: embedOrigin,
            close: () => {
              void import("./embed-bridge").then((m) =>
                m.postToPage(embedOrigin, "close", {
                  reference: view.reference,
                  status: recordNow.current.status,
                }),
              );
            },
          }
        : null,
    [embedOrigin, view.reference],
  );

  // The other channels' panels, the API's calls, the outcome and the cancel question, fetched once the page is
  // idle so a tab switch, a submit, a payment's end or "Cancel payment" never waits for the network.
  useEffect(() => {
    const preload = () => {
      for (const load of [
        ...view.channels.map((channel) => PRELOAD[channel]),
        loadCalls,
        loadOutcome,
        loadCancel,
      ])
        void load().catch(() => {});
    };
    if (typeof requestIdleCallback === "function") {
      const id = requestIdleCallback(preload, { timeout: 3_000 });
      return () => cancelIdleCallback(id);
    }
    const timer = setTimeout(preload, 1_000);
    return () => clearTimeout(timer);
  }, [view.channels]);

  const context: CheckoutContextValue = useMemo(
    () => ({
      view,
      record,
      applyStatus,
      refresh,
      focusTabs,
      locale,
      t,
      money: (amount: string, currency = view.currency) => formatMoney(amount, currency, locale),
      posted,
      embed,
    }),
    [view, record, applyStatus, refresh, focusTabs, locale, t, posted, embed],
  );

  const items: TabItem[] = view.channels.map((channel) => {
    const { total } = customerTotal(view, { ...record, status: "pending" }, channel);
    const Panel = PANEL[channel];
    // The panel the page opens on is part of the page's HTML itself: no Suspense boundary of its own, which
    // React would stream after the rest (as a hidden part only JavaScript shows) once it is large.
    const panel =
      channel === firstChannel ? <Panel key={channel} /> : <LaterPanel key={channel} channel={channel} />;
    return { id: channel, label: t.channels[channel], detail: context.money(total), panel };
  });

  return (
    <FocusStepsContext.Provider value={ready}>
      <LoadingContext.Provider value={t.loading}>
        <CheckoutContext.Provider value={context}>
          <SelectedChannelContext.Provider value={tab}>
            <header className="border-b border-slate-200 p-5 sm:p-6">
              {intro}
              <AmountSummary
                view={view}
                record={record}
                t={t}
                locale={locale}
                channel={
                  TERMINAL.has(record.status) &&
                  record.channel &&
                  (view.channels as string[]).includes(record.channel)
                    ? (record.channel as Channel)
                    : tab
                }
              />
              {terms && (
                <p className="mt-1 text-sm font-medium text-slate-800" data-testid="plan-terms">
                  {terms}
                </p>
              )}
              {payer}
            </header>
            <div className="p-5 sm:p-6">
              {expired ? (
                <div role="alert" className="rounded-lg bg-slate-100 p-4 text-slate-800">
                  <h2 className="font-semibold">{t.expiredTitle}</h2>
                  <p className="mt-1 text-sm">{fmt(t.expiredBody, { merchant: view.merchant.name })}</p>
                </div>
              ) : TERMINAL.has(record.status) ? (
                opensOnOutcome.current ? (
                  <Outcome />
                ) : (
                  <Suspense fallback={loading()}>
                    <Outcome />
                  </Suspense>
                )
              ) : (
                <>
                  {record.amountMismatch && tab !== "bank_transfer" && (
                    // The transfer tab says this in full; on any other tab the customer still learns it.
                    <p role="status" className={`mb-4 ${alertWarning}`} data-testid="mismatch-elsewhere">
                      {fmt(t.mismatchElsewhere, {
                        received: context.money(record.amountMismatch.received),
                        expected: context.money(record.amountMismatch.expected),
                        due: context.money(record.amountMismatch.due),
                      })}
                    </p>
                  )}
                  <h2 className="mb-3 text-sm font-medium text-slate-700" id="pay-with">
                    {t.chooseHowToPay}
                  </h2>
                  <Tabs
                    label={t.paymentMethod}
                    items={items}
                    selected={tab}
                    onSelect={(id) => setTab(id as Channel)}
                    hrefFor={hrefFor}
                    listRef={tablist}
                  />
                  {pollError && !expired && <p className="mt-4 text-sm text-amber-800">{t.reconnecting}</p>}
                  <Cancel
                    keep={{ ...keep, channel: tab }}
                    initiallyConfirming={confirmCancel}
                    label={t.cancel.open}
                  />
                </>
              )}
            </div>
            <p aria-live="polite" className="sr-only">
              {announcement}
            </p>
            {embedOrigin && <EmbedBridge origin={embedOrigin} />}
            <StatusPoll
              accessCode={view.accessCode}
              initial={record}
              activity={activity}
              onRecord={setRecord}
              onError={setPollError}
            />
          </SelectedChannelContext.Provider>
        </CheckoutContext.Provider>
      </LoadingContext.Provider>
    </FocusStepsContext.Provider>
  );
}

/**
 * "Cancel payment": the button comes with the page, the question and its request once the page is idle
 * (cancel-payment.tsx), or with the page when it was opened by the plain form (`?cancel=confirm`).
 */
function Cancel({
  keep,
  initiallyConfirming,
  label,
}: {
  keep: Record<string, string>;
  initiallyConfirming: boolean;
  label: string;
}) {
  const [open, setOpen] = useState(initiallyConfirming);
  if (initiallyConfirming) return <CancelPayment keep={keep} initiallyConfirming />;
  if (!open) return <CancelButton keep={keep} label={label} onOpen={() => setOpen(true)} />;
  return (
    <Suspense fallback={<CancelButton keep={keep} label={label} onOpen={() => {}} />}>
      <CancelPayment keep={keep} initiallyConfirming openedHere />
    </Suspense>
  );
}
