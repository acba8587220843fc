"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { Field } from "@/components/ui/field";
import { alertError, inputClass } from "@/components/ui/styles";
import { consoleCall, fieldErrors } from "./api";
import { buttonSmall } from "./styles";

const ALL_CHANNELS = ["card", "bank_transfer", "bank_payment", "ussd"] as const;

type Settings = {
  channels: string[];
  merchantBearsCost: boolean;
  brandColor: string | null;
  logoUrl: string | null;
  embedOrigins: string[];
};

/** Text on the brand colour: white or near-black, whichever reads better. */
function foreground(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? "#0f172a" : "#ffffff";
}

/**
 * Business name, channels, who bears the fees, brand colour and logo, with a live preview of the checkout's
 * header; and the websites allowed to embed the checkout (one origin a line).
 */
export function SettingsForm({ initial, businessName }: { initial: Settings; businessName: string }) {
  const id = useId();
  const router = useRouter();
  const [channels, setChannels] = useState(initial.channels);
  const [bears, setBears] = useState(initial.merchantBearsCost);
  const [color, setColor] = useState(initial.brandColor ?? "#0f766e");
  const [logoUrl, setLogoUrl] = useState(initial.logoUrl ?? "");
  const [name, setName] = useState(businessName);
  const [origins, setOrigins] = useState(initial.embedOrigins.join("\n"));
  const save = useMutation({
    mutationFn: () =>
      consoleCall("PUT", "settings", {
        businessName: name,
        channels,
        merchantBearsCost: bears,
        brandColor: color,
        logoUrl: logoUrl.trim() ? logoUrl.trim() : null,
        embedOrigins: origins
          .split(/[\s,]+/)
          .map((o) => o.trim())
          .filter(Boolean),
      }),
    onSuccess: () => router.refresh(),
  });
  const { byField, rest } = fieldErrors(save.error, [
    "businessName",
    "channels",
    "merchantBearsCost",
    "brandColor",
    "logoUrl",
    "embedOrigins",
  ]);
  const validColor = /^#[0-9a-fA-F]{6}$/.test(color);
  return (
    <form
      className="space-y-5"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Field
        id={`${id}-name`}
        label="Business name"
        hint="What customers see on the checkout, your payment links and their receipts."
        error={byField.businessName}
      >
        {(aria) => (
          <input
            {...aria}
            value={name}
            maxLength={120}
            autoComplete="organization"
            onChange={(e) => setName(e.target.value)}
            className={inputClass}
          />
        )}
      </Field>
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">Channels customers can pay with</legend>
        <div className="mt-1 flex flex-wrap gap-4">
          {ALL_CHANNELS.map((c) => (
            <label key={c} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={channels.includes(c)}
                onChange={(e) =>
                  setChannels((list) =>
                    e.target.checked
                      ? ALL_CHANNELS.filter((x) => x === c || list.includes(x))
                      : list.filter((x) => x !== c),
                  )
                }
              />
              {c.replaceAll("_", " ")}
            </label>
          ))}
        </div>
        {byField.channels && <p className="mt-1 text-sm font-medium text-red-700">{byField.channels}</p>}
      </fieldset>
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">Who pays the fees</legend>
        <div className="mt-1 flex flex-wrap gap-4">
          <label className="flex items-center gap-2 text-sm">
            <input type="radio" name="bears" checked={!bears} onChange={() => setBears(false)} /> The customer
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input type="radio" name="bears" checked={bears} onChange={() => setBears(true)} /> You
          </label>
        </div>
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          id={`${id}-color`}
          label="Brand colour"
          hint="A hex colour like #0a7d5a."
          error={byField.brandColor}
        >
          {(aria) => (
            <div className="flex items-center gap-2">
              <input
                type="color"
                value={validColor ? color : "#0f766e"}
                onChange={(e) => setColor(e.target.value)}
                aria-label="Pick the brand colour"
                className="mt-1 h-11 w-14 rounded border border-slate-300"
              />
              <input
                {...aria}
                value={color}
                onChange={(e) => setColor(e.target.value)}
                className={inputClass}
              />
            </div>
          )}
        </Field>
        <Field id={`${id}-logo`} label="Logo URL" optional error={byField.logoUrl}>
          {(aria) => (
            <input
              {...aria}
              type="url"
              value={logoUrl}
              onChange={(e) => setLogoUrl(e.target.value)}
              className={inputClass}
            />
          )}
        </Field>
      </div>
      <div>
        <p className="text-sm font-medium text-slate-800" id={`${id}-preview`}>
          Preview of the checkout header
        </p>
        <div
          aria-labelledby={`${id}-preview`}
          role="img"
          className="mt-2 flex items-center gap-3 rounded-xl px-4 py-3"
          style={{
            background: validColor ? color : "#0f766e",
            color: foreground(validColor ? color : "#0f766e"),
          }}
        >
          {logoUrl.trim() && /^https?:\/\//.test(logoUrl.trim()) && (
            // biome-ignore lint/performance/noImgElement: the merchant's own logo URL, shown as checkout shows it
            <img src={logoUrl.trim()} alt="" className="h-8 w-8 rounded bg-white object-contain" />
          )}
          <span className="font-semibold">{name.trim() || businessName}</span>
        </div>
      </div>
      <Field
        id={`${id}-origins`}
        label="Websites that may embed the checkout"
        optional
        hint={
          <>
            One origin a line, like https://shop.example: the pages of these sites can open your checkout over
            themselves with <code>/v1/inline.js</code>. No path; https only on production (staging also takes
            http://localhost and http://127.0.0.1).
          </>
        }
        error={byField.embedOrigins}
      >
        {(aria) => (
          <textarea
            {...aria}
            value={origins}
            rows={3}
            spellCheck={false}
            autoCapitalize="none"
            placeholder="https://shop.example"
            onChange={(e) => setOrigins(e.target.value)}
            className={`${inputClass} font-mono`}
          />
        )}
      </Field>
      {rest && (
        <p role="alert" className={alertError}>
          {rest}
        </p>
      )}
      <div className="flex items-center gap-3">
        <button type="submit" className={buttonSmall} disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save settings"}
        </button>
        {save.isSuccess && (
          <span role="status" className="text-sm text-emerald-800">
            Saved.
          </span>
        )}
      </div>
    </form>
  );
}
