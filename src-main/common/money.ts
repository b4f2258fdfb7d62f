/** Money is a whole number of rupiah everywhere; this only formats it for people. */
export function formatRupiah(amount: number): string {
  const sign = amount < 0 ? '-' : '';
  const digits = Math.abs(Math.trunc(amount)).toString();
  return `${sign}Rp${digits.replace(/\B(?=(\d{3})+(?!\d))/g, '.')}`;
}
