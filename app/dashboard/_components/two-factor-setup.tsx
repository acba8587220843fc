"use client";

import { useActionState } from "react";
import { alertError, buttonPrimary, inputClass } from "@/components/ui/styles";
import { type TwoFactorState, twoFactorAction } from "../_actions/two-factor";

/** Set up two-factor sign-in: forms posted to one server action, with JavaScript or without. */
export function TwoFactorSetup() {
  const [state, action, pending] = useActionState<TwoFactorState, FormData>(twoFactorAction, {});
  if (state.recoveryCodes)
    return (
      <div role="status" className="space-y-2 text-sm">
        <p className="font-semibold">
          Two-factor sign-in is on. Keep these recovery codes somewhere safe: each signs in once, and they are
          not shown again.
        </p>
        <ul className="grid grid-cols-2 gap-1 font-mono" data-testid="recovery-codes">
          {state.recoveryCodes.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ul>
      </div>
    );
  if (state.setup)
    return (
      <form action={action} className="space-y-3 text-sm">
        {/* biome-ignore lint/performance/noImgElement: a data URL drawn on the server */}
        <img
          src={state.setup.qrCode}
          width={200}
          height={200}
          alt="QR code of your two-factor secret, for your authenticator app"
        />
        <p>
          Or type this secret into your app:{" "}
          <code className="break-all" data-testid="totp-secret">
            {state.setup.secret}
          </code>
        </p>
        <input type="hidden" name="step" value="enable" />
        <label htmlFor="totp-code" className="block font-medium">
          The 6-digit code your app shows
        </label>
        <input
          id="totp-code"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          className={inputClass}
        />
        {state.error && (
          <p role="alert" className={alertError}>
            {state.error}
          </p>
        )}
        <button type="submit" className={buttonPrimary} disabled={pending}>
          Turn on two-factor sign-in
        </button>
      </form>
    );
  return (
    <form action={action}>
      <input type="hidden" name="step" value="setup" />
      <button type="submit" className={buttonPrimary} disabled={pending}>
        Set up two-factor sign-in
      </button>
    </form>
  );
}
