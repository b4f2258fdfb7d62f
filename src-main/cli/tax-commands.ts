import { parsePercentBp } from '../common/tax';
import { parseArgs } from 'node:util';
import { loadSaleSettings, saveSaleSettings, type SaleSettingsChange } from '../core/settings/sale-settings';
import { cliUser, defaultIo, printIssues, readStore, withStore, type Io, type StoreOptions } from './cli-support';
import { EXIT, UsageError } from './exit-codes';

export const SET_TAX_USAGE = `  config set-tax [--ppn-rate PCT] [--dpp NUM/DEN] [--prices include|exclude]
                 [--pbjt on|off] [--pbjt-rate PCT] [--service on|off] [--service-rate PCT]
                 [--default-category ppn|pbjt|exempt] [--pkp on|off] [--seller-name N] [--seller-address A]
                 [--npwp N] [--cash-rounding off|down|nearest] [--line-discount-limit PCT]
                 [--sale-discount-limit PCT] [--json]
                                       the sale's tax, cash rounding and discount limits (docs/tax.md);
                                       PCT: 12, 12%, 12.5; each change audited. With no option: shows them
`;

/** The settings field each flag sets, named after the field's rule in a refusal. */
const FLAGS: Record<string, string> = {
  'tax.ppn.rateBp': '--ppn-rate',
  'tax.ppn.dpp': '--dpp',
  'tax.ppn.dpp.num': '--dpp',
  'tax.ppn.dpp.den': '--dpp',
  'tax.pricesIncludeTax': '--prices',
  'tax.pbjt.enabled': '--pbjt',
  'tax.pbjt.rateBp': '--pbjt-rate',
  'tax.service.enabled': '--service',
  'tax.service.rateBp': '--service-rate',
  'tax.defaultCategory': '--default-category',
  'tax.pkp.enabled': '--pkp',
  'tax.pkp.sellerName': '--seller-name',
  'tax.pkp.address': '--seller-address',
  'tax.pkp.npwp': '--npwp',
  'cash.rounding': '--cash-rounding',
  'discounts.lineBp': '--line-discount-limit',
  'discounts.saleBp': '--sale-discount-limit',
};

/** "12", "12%", "12.5" → basis points (1200, 1250); anything else is the flag's mistake. */
export function percentToBp(flag: string, text: string): number {
  const bp = parsePercentBp(text);
  if (bp === undefined)
    throw new UsageError(`${flag}: a percentage such as 12, 12% or 12.5 (got ${JSON.stringify(text)})`);
  return bp;
}

function onOff(flag: string, text: string): boolean {
  if (text === 'on') return true;
  if (text === 'off') return false;
  throw new UsageError(`${flag}: on or off (got ${JSON.stringify(text)})`);
}

export async function runSetTaxCommand(
  argv: string[],
  options: StoreOptions = {},
  io: Io = defaultIo,
): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      'ppn-rate': { type: 'string' },
      dpp: { type: 'string' },
      prices: { type: 'string' },
      pbjt: { type: 'string' },
      'pbjt-rate': { type: 'string' },
      service: { type: 'string' },
      'service-rate': { type: 'string' },
      'default-category': { type: 'string' },
      pkp: { type: 'string' },
      'seller-name': { type: 'string' },
      'seller-address': { type: 'string' },
      npwp: { type: 'string' },
      'cash-rounding': { type: 'string' },
      'line-discount-limit': { type: 'string' },
      'sale-discount-limit': { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  const tax: Record<string, unknown> = {};
  const ppn: Record<string, unknown> = {};
  if (values['ppn-rate'] !== undefined) ppn.rateBp = percentToBp('--ppn-rate', values['ppn-rate']);
  if (values.dpp !== undefined) {
    const m = /^(\d{1,6})\/(\d{1,6})$/.exec(values.dpp.trim());
    if (!m) throw new UsageError(`--dpp: a fraction NUM/DEN such as 11/12 (got ${JSON.stringify(values.dpp)})`);
    ppn.dpp = { num: Number(m[1]), den: Number(m[2]) };
  }
  if (Object.keys(ppn).length > 0) tax.ppn = ppn;
  if (values.prices !== undefined) {
    if (values.prices !== 'include' && values.prices !== 'exclude')
      throw new UsageError(`--prices: include or exclude (got ${JSON.stringify(values.prices)})`);
    tax.pricesIncludeTax = values.prices === 'include';
  }
  const pbjt: Record<string, unknown> = {};
  if (values.pbjt !== undefined) pbjt.enabled = onOff('--pbjt', values.pbjt);
  if (values['pbjt-rate'] !== undefined) pbjt.rateBp = percentToBp('--pbjt-rate', values['pbjt-rate']);
  if (Object.keys(pbjt).length > 0) tax.pbjt = pbjt;
  const service: Record<string, unknown> = {};
  if (values.service !== undefined) service.enabled = onOff('--service', values.service);
  if (values['service-rate'] !== undefined) service.rateBp = percentToBp('--service-rate', values['service-rate']);
  if (Object.keys(service).length > 0) tax.service = service;
  if (values['default-category'] !== undefined) tax.defaultCategory = values['default-category'];
  const pkp: Record<string, unknown> = {};
  if (values.pkp !== undefined) pkp.enabled = onOff('--pkp', values.pkp);
  if (values['seller-name'] !== undefined) pkp.sellerName = values['seller-name'];
  if (values['seller-address'] !== undefined) pkp.address = values['seller-address'];
  if (values.npwp !== undefined) pkp.npwp = values.npwp;
  if (Object.keys(pkp).length > 0) tax.pkp = pkp;
  const cash: Record<string, unknown> = {};
  if (values['cash-rounding'] !== undefined) cash.rounding = values['cash-rounding'];
  const discounts: Record<string, unknown> = {};
  if (values['line-discount-limit'] !== undefined)
    discounts.lineBp = percentToBp('--line-discount-limit', values['line-discount-limit']);
  if (values['sale-discount-limit'] !== undefined)
    discounts.saleBp = percentToBp('--sale-discount-limit', values['sale-discount-limit']);

  const show = (settings: unknown) => {
    io.out(
      values.json
        ? JSON.stringify(settings, null, 2) + '\n'
        : describe(settings as ReturnType<typeof loadSaleSettings>),
    );
  };
  if (Object.keys(tax).length + Object.keys(cash).length + Object.keys(discounts).length === 0)
    return readStore(options, async (store) => {
      show(loadSaleSettings(store.settings));
      return EXIT.OK;
    });

  return withStore(options, async (store) => {
    const result: SaleSettingsChange = saveSaleSettings(store, cliUser(options.env), { tax, cash, discounts });
    if (!result.ok) {
      printIssues(io, result.issues, FLAGS);
      io.err('nothing was changed\n');
      return EXIT.INVALID_INPUT;
    }
    if (!values.json)
      io.out(result.changed.length === 0 ? 'nothing changed\n' : `changed: ${result.changed.join(', ')}\n`);
    show(result.after);
    return EXIT.OK;
  });
}

function describe(s: ReturnType<typeof loadSaleSettings>): string {
  const pct = (bp: number) => `${bp / 100}%`;
  const t = s.tax;
  return [
    `PPN ${pct(t.ppn.rateBp)} on a base of ${t.ppn.dpp.num}/${t.ppn.dpp.den}; prices ${t.pricesIncludeTax ? 'include' : 'exclude'} tax`,
    `PBJT ${t.pbjt.enabled ? 'on' : 'off'} (${pct(t.pbjt.rateBp)}); service charge ${t.service.enabled ? 'on' : 'off'} (${pct(t.service.rateBp)})`,
    `default category of a typed line: ${t.defaultCategory}`,
    `PKP ${t.pkp.enabled ? `on: ${t.pkp.sellerName}, NPWP ${t.pkp.npwp}` : 'off'}`,
    `cash rounding: ${s.cash.rounding}`,
    `discount limits without a manager's PIN: line ${pct(s.discounts.lineBp)}, sale ${pct(s.discounts.saleBp)}`,
    '',
  ].join('\n');
}
