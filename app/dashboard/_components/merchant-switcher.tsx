import { switchMerchantAction } from "../_actions/account";

/**
 * The merchants the signed-in user belongs to, to switch between: a plain form (a select and a button), so it
 * works before the page's code runs and without JavaScript.
 */
export function MerchantSwitcher({
  merchants,
  current,
}: {
  merchants: { merchantId: string; businessName: string; role: string }[];
  current: string;
}) {
  return (
    <form action={switchMerchantAction} className="flex items-center gap-2" data-testid="merchant-switcher">
      <label htmlFor="merchant-switch" className="sr-only">
        Merchant
      </label>
      <select
        id="merchant-switch"
        name="merchantId"
        defaultValue={current}
        className="max-w-40 rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-sm"
      >
        {merchants.map((m) => (
          <option key={m.merchantId} value={m.merchantId}>
            {m.businessName} ({m.role})
          </option>
        ))}
      </select>
      <button
        type="submit"
        className="rounded-lg px-2 py-1.5 text-sm font-semibold text-teal-800 ring-1 ring-slate-300"
      >
        Switch
      </button>
    </form>
  );
}
