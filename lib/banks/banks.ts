/**
 * Banks customers can pay from, by country. Nigerian codes are the CBN/NIBSS bank codes used by NIP and the
 * major gateways; `ussd` is the bank's own USSD short code where it has one. Ghana uses the Bank of Ghana
 * sort-code prefixes, Kenya the CBK bank codes.
 */
export type Bank = { code: string; name: string; ussd?: string };
export type Country = "NG" | "GH" | "KE";

const NG: Bank[] = [
  { code: "044", name: "Access Bank", ussd: "*901#" },
  { code: "063", name: "Access Bank (Diamond)", ussd: "*426#" },
  { code: "035A", name: "ALAT by Wema" },
  { code: "401", name: "ASO Savings and Loans" },
  { code: "50931", name: "Bowen Microfinance Bank" },
  { code: "565", name: "Carbon" },
  { code: "023", name: "Citibank Nigeria" },
  { code: "559", name: "Coronation Merchant Bank" },
  { code: "050", name: "Ecobank Nigeria", ussd: "*326#" },
  { code: "562", name: "Ekondo Microfinance Bank" },
  { code: "070", name: "Fidelity Bank", ussd: "*770#" },
  { code: "011", name: "First Bank of Nigeria", ussd: "*894#" },
  { code: "214", name: "First City Monument Bank", ussd: "*329#" },
  { code: "501", name: "FSDH Merchant Bank" },
  { code: "00103", name: "Globus Bank", ussd: "*989#" },
  { code: "058", name: "Guaranty Trust Bank", ussd: "*737#" },
  { code: "51251", name: "Hackman Microfinance Bank" },
  { code: "030", name: "Heritage Bank", ussd: "*745#" },
  { code: "301", name: "Jaiz Bank", ussd: "*773#" },
  { code: "082", name: "Keystone Bank", ussd: "*7111#" },
  { code: "50211", name: "Kuda Bank" },
  { code: "303", name: "Lotus Bank" },
  { code: "50515", name: "Moniepoint Microfinance Bank" },
  { code: "561", name: "Nova Commercial Bank" },
  { code: "999992", name: "OPay" },
  { code: "107", name: "Optimus Bank" },
  { code: "999991", name: "PalmPay" },
  { code: "104", name: "Parallex Bank" },
  { code: "076", name: "Polaris Bank", ussd: "*833#" },
  { code: "105", name: "PremiumTrust Bank" },
  { code: "101", name: "Providus Bank" },
  { code: "502", name: "Rand Merchant Bank" },
  { code: "125", name: "Rubies Microfinance Bank" },
  { code: "106", name: "Signature Bank" },
  { code: "51310", name: "Sparkle Microfinance Bank" },
  { code: "221", name: "Stanbic IBTC Bank", ussd: "*909#" },
  { code: "068", name: "Standard Chartered Bank" },
  { code: "232", name: "Sterling Bank", ussd: "*822#" },
  { code: "100", name: "Suntrust Bank", ussd: "*5230#" },
  { code: "302", name: "TAJBank" },
  { code: "102", name: "Titan Trust Bank" },
  { code: "032", name: "Union Bank of Nigeria", ussd: "*826#" },
  { code: "033", name: "United Bank for Africa", ussd: "*919#" },
  { code: "215", name: "Unity Bank", ussd: "*7799#" },
  { code: "566", name: "VFD Microfinance Bank" },
  { code: "035", name: "Wema Bank", ussd: "*945#" },
  { code: "057", name: "Zenith Bank", ussd: "*966#" },
];

const GH: Bank[] = [
  { code: "030100", name: "Absa Bank Ghana" },
  { code: "280100", name: "Access Bank Ghana" },
  { code: "080100", name: "Agricultural Development Bank" },
  { code: "140100", name: "CalBank" },
  { code: "340100", name: "Consolidated Bank Ghana" },
  { code: "130100", name: "Ecobank Ghana" },
  { code: "240100", name: "Fidelity Bank Ghana" },
  { code: "170100", name: "First Atlantic Bank" },
  { code: "330100", name: "First National Bank Ghana" },
  { code: "040100", name: "GCB Bank" },
  { code: "230100", name: "Guaranty Trust Bank Ghana" },
  { code: "180100", name: "Prudential Bank" },
  { code: "110100", name: "Republic Bank Ghana" },
  { code: "090100", name: "Societe Generale Ghana" },
  { code: "190100", name: "Stanbic Bank Ghana" },
  { code: "020100", name: "Standard Chartered Bank Ghana" },
  { code: "060100", name: "United Bank for Africa Ghana" },
  { code: "120100", name: "Zenith Bank Ghana" },
];

const KE: Bank[] = [
  { code: "03", name: "Absa Bank Kenya" },
  { code: "11", name: "Co-operative Bank of Kenya" },
  { code: "63", name: "Diamond Trust Bank" },
  { code: "68", name: "Equity Bank" },
  { code: "70", name: "Family Bank" },
  { code: "57", name: "I&M Bank" },
  { code: "01", name: "Kenya Commercial Bank" },
  { code: "12", name: "National Bank of Kenya" },
  { code: "07", name: "NCBA Bank" },
  { code: "10", name: "Prime Bank" },
  { code: "31", name: "Stanbic Bank Kenya" },
  { code: "02", name: "Standard Chartered Bank Kenya" },
];

export const BANKS: Record<Country, readonly Bank[]> = { NG, GH, KE };

/** The country whose banks a transaction in `currency` is paid from. */
export function countryForCurrency(currency: string): Country {
  if (currency === "GHS") return "GH";
  if (currency === "KES") return "KE";
  return "NG";
}

export function findBank(country: Country, code: string): Bank | undefined {
  return BANKS[country].find((b) => b.code === code);
}

/** A country's banks as customers pick from them ({code, name}, by name); `ussdOnly` keeps those with USSD. */
export function bankChoices(country: Country, { ussdOnly = false } = {}): { code: string; name: string }[] {
  return BANKS[country]
    .filter((b) => !ussdOnly || b.ussd)
    .map((b) => ({ code: b.code, name: b.name }))
    .sort((a, b) => a.name.localeCompare(b.name, "en"));
}
