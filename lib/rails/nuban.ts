/**
 * NUBAN (CBN's Nigeria Uniform Bank Account Number): 9 serial digits and a check digit computed over the
 * bank code and serial with weights 3,7,3 repeating. 3-digit bank codes are used as they are; longer
 * institution codes are not part of the classic algorithm and are not needed here.
 */
const WEIGHTS = [3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3];

export function nubanCheckDigit(bankCode: string, serial: string): number {
  if (!/^\d{3}$/.test(bankCode) || !/^\d{9}$/.test(serial))
    throw new RangeError("bank code of 3 digits, serial of 9");
  const digits = `${bankCode}${serial}`;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(digits[i]) * (WEIGHTS[i] as number);
  return (10 - (sum % 10)) % 10;
}

export function isValidNuban(bankCode: string, accountNumber: string): boolean {
  return (
    /^\d{10}$/.test(accountNumber) &&
    nubanCheckDigit(bankCode, accountNumber.slice(0, 9)) === Number(accountNumber[9])
  );
}
