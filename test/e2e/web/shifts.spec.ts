// The cashier's shift screens in a real browser against `serve` (docs/tenders.md, "Shifts"): opening a shift with a
// float from the header (the drawer that cannot be reached said, not blocking), a pay-in, a pay-out over the
// manager's limit approved with a manager's PIN (a wrong one first), the X report only once a manager has unlocked,
// the close by a blind count (nothing expected shown before the count is confirmed; then expected, counted and the
// difference, and the Z report printed as an A4 page), all by keyboard, and the dialogs at the layouts' sizes in
// both languages (screenshots in /tmp/shots/shift-ui/).
import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, prints, stubPrint, test, type LoketServer } from './fixtures';
import { layoutProblems, name, resize, type Size } from './layout-checks';

const MANAGER = { name: 'Bu Sri', pin: '97531864' };
const SHOTS = '/tmp/shots/shift-ui';

async function openCashier(page: Page, loket: LoketServer): Promise<void> {
  await loket.call('setupManager', { name: MANAGER.name, pin: MANAGER.pin });
  await page.setViewportSize({ width: 1280, height: 800 });
  await stubPrint(page);
  await page.goto(loket.cashierUrl);
  await expect(page.getByRole('button', { name: /^(Tagih|Charge)/ })).toBeVisible();
}

const dialog = (page: Page) => page.getByTestId('shift-dialog');

/** The shift's menu from the header's button, by keyboard, then one of its actions. */
async function fromMenu(page: Page, action: string): Promise<void> {
  await page.getByTestId('shift-button').focus();
  await page.keyboard.press('Enter');
  await expect(dialog(page).locator('[data-step="menu"]')).toBeVisible();
  await page.getByTestId(`shift-menu-${action}`).click();
}

/** The done step: what was done and the drawer's outcome; Enter (on Done) goes back. */
async function done(page: Page, text: RegExp): Promise<void> {
  await expect(dialog(page).getByRole('heading')).toHaveText(text);
  // No printer is set up in browser mode here: the drawer cannot be opened, and the screen says so.
  await expect(page.getByTestId('shift-drawer')).toHaveAttribute('data-ok', 'false');
  await expect(page.getByTestId('shift-drawer')).toContainText(/laci kas/i);
  await expect(page.getByTestId('shift-done-button')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog(page)).not.toBeVisible();
}

test('a shift: open with a float, pay in, pay out over the limit with a PIN, X report, blind count, Z report', async ({
  page,
  loket,
}) => {
  test.setTimeout(120_000);
  await openCashier(page, loket);

  // None open: the header offers to open one; the float is typed and Enter opens the shift.
  const button = page.getByTestId('shift-button');
  await expect(button).toHaveAttribute('data-shift', 'none');
  await expect(button).toHaveAccessibleName('Buka Shift');
  await button.click();
  await expect(page.locator('#shift-float')).toBeFocused();
  await page.keyboard.type('12,5');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('shift-float-error')).toHaveText(/Modal awal: rupiah bulat/);
  await page.locator('#shift-float').fill('500.000');
  await page.keyboard.press('Enter');
  await done(page, /Shift T\w+-S0001 dibuka/);
  await expect(button).toHaveAttribute('data-shift', 'open');
  await expect(button).toHaveAccessibleName(/^Shift \d\d\.\d\d · kasir \(belum masuk\): menu shift$/);
  const opened = await loket.call('currentShift');
  expect(opened).toMatchObject({ float: 500_000, state: 'open' });
  // The cashier's answer carries no cash figures (the blind count).
  expect(opened).not.toHaveProperty('cash');

  // A pay-in: amount and reason are required.
  await fromMenu(page, 'pay_in');
  await expect(page.locator('#shift-amount')).toBeFocused();
  await page.keyboard.type('50.000');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('shift-reason-error')).toHaveText(/Alasan: 3 sampai 200 karakter/);
  await page.locator('#shift-reason').fill('uang receh dari bank');
  await page.keyboard.press('Enter');
  await done(page, /Kas masuk Rp50\.000 dicatat/);

  // A pay-out over the manager's limit (Rp100.000 by default): the server asks for a manager's PIN.
  await fromMenu(page, 'pay_out');
  await page.locator('#shift-amount').fill('150.000');
  await page.locator('#shift-reason').fill('bayar pemasok sayur');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('shift-manager-approval')).toBeVisible();
  // The one manager is already picked; a wrong PIN is said and cleared.
  await expect(page.locator('#shift-manager')).toHaveValue(/\d+/);
  await page.locator('#shift-pin').fill('11111111');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('shift-pin-problem')).toHaveText(/PIN salah/);
  await expect(page.locator('#shift-pin')).toHaveValue('');
  await page.locator('#shift-pin').fill(MANAGER.pin);
  await page.keyboard.press('Enter');
  await done(page, /Kas keluar Rp150\.000 dicatat/);

  // The X report shows what the drawer should hold: not to the cashier alone.
  await fromMenu(page, 'report');
  await expect(page.getByTestId('shift-x-locked')).toBeVisible();
  await expect(dialog(page)).not.toContainText('Rp400.000');
  await dialog(page).getByRole('button', { name: 'Ke layar Manajer' }).click();
  await expect(page.getByTestId('manager-unlock')).toBeVisible();
  await page.getByRole('radio', { name: MANAGER.name }).check();
  await page.getByLabel(`PIN ${MANAGER.name}`).fill(MANAGER.pin);
  await page.getByTestId('unlock-submit').click();
  await expect(page.getByTestId('manager-unlock')).not.toBeVisible();
  await fromMenu(page, 'report');
  const x = page.getByTestId('shift-report');
  await expect(x).toHaveAttribute('data-kind', 'X');
  // 500.000 + 50.000 − 150.000.
  await expect(page.getByTestId('shift-report-expected')).toHaveText('Rp400.000');
  await page.keyboard.press('Escape');
  await expect(dialog(page)).not.toBeVisible();

  // The close: a blind count by note and coin. Nothing expected is on screen until the count is confirmed.
  await fromMenu(page, 'close');
  await expect(dialog(page).getByRole('heading')).toHaveText(/hitung laci/);
  await page.getByTestId('shift-count-note100000').fill('3');
  await page.getByTestId('shift-count-note50000').fill('1');
  await page.getByTestId('shift-count-note20000').fill('2');
  await page.getByTestId('shift-count-coin1000').fill('5');
  await expect(page.getByTestId('shift-count-running')).toHaveText('Rp395.000');
  await expect(dialog(page)).not.toContainText('Rp400.000');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('shift-confirm-text')).toContainText('Rp395.000');
  await expect(dialog(page)).not.toContainText('Rp400.000');
  await expect(page.getByTestId('shift-close-submit')).toBeFocused();
  await page.keyboard.press('Enter');

  // Revealed: expected, counted, and Rp5.000 short.
  const reveal = page.getByTestId('shift-reveal');
  await expect(reveal).toHaveAttribute('data-status', 'short');
  await expect(page.getByTestId('shift-reveal-expected')).toHaveText('Rp400.000');
  await expect(page.getByTestId('shift-reveal-counted')).toHaveText('Rp395.000');
  await expect(page.getByTestId('shift-reveal-difference')).toHaveText(/-Rp5\.000 · Kurang/);
  await expect(page.getByTestId('shift-report')).toHaveAttribute('data-kind', 'Z');
  await expect(button).toHaveAttribute('data-shift', 'none');

  // The Z report: on the receipt printer — none is set up, so its A4 page prints from the screen — and the A4 page.
  await expect(page.getByTestId('shift-report-print')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('shift-report-notice')).toHaveText(/Halaman A4/);
  await page.getByTestId('shift-report-page').click();
  await expect.poll(async () => (await prints(page)).length).toBe(2);
  const printed = await prints(page);
  for (const text of printed) expect(text).toMatch(/400\.000[\s\S]*395\.000/);
  await page.getByTestId('shift-done-button').click();
  await expect(dialog(page)).not.toBeVisible();

  const closed = await loket.call('shiftReport', null, {});
  expect(closed.kind).toBe('Z');
  expect(closed.count).toMatchObject({ expected: 400_000, counted: 395_000, difference: -5_000, status: 'short' });
  expect(closed.count?.byDenomination).toEqual({ note100000: 3, note50000: 1, note20000: 2, coin1000: 5 });

  // The manager's day screen lists the shift with its float, expected, counted and difference (the day report's).
  await page.keyboard.press('F8');
  await page.getByTestId('nav-day').click();
  const row = page.getByTestId('day-shifts').locator('tbody tr[data-shift]');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Rp500.000');
  // Opened at the till with nobody signed in: said in the screen's words, not the server's English.
  await expect(row).toContainText('kasir (belum masuk)');
  await expect(row).not.toContainText('nobody');
  await expect(row).toContainText('Rp400.000');
  await expect(row.getByTestId('shift-difference')).toHaveText(/-Rp5\.000 · kurang/);
  await expect(row.getByTestId('shift-difference')).toHaveAttribute('data-amount', '-5000');
  await expect(page.getByTestId('day-refunds')).toContainText('Tidak ada refund pada hari ini.');

  // In training the shift's changes are audited on the training log, in their own transactions: the manager's list
  // shows them among the store's entries, marked.
  await page.getByTestId('nav-audit').click();
  const training = page.getByTestId('audit-table').locator('tr[data-log="training"]');
  await expect(training.filter({ has: page.locator('text=latihan') }).first()).toBeVisible();
  await checkSizes(page, 'audit-training', 'id');
  await expect(
    page.getByTestId('audit-table').locator('tr[data-log="training"][data-action="shift.closed"]'),
  ).toHaveCount(1);
  await expect(
    page.getByTestId('audit-table').locator('tr[data-log="store"][data-action="manager.unlocked"]').first(),
  ).toBeVisible();
});

test("the X report is refused to the cashier's API without a manager's session; a closed shift's Z is not", async ({
  loket,
}) => {
  await loket.call('openShift', { float: 120_000 });
  await expect(loket.call('shiftReport', null, {})).rejects.toThrow(/X report shows the cash the drawer should hold/);
  await expect(loket.call('printShiftReport', null, {})).rejects.toThrow(/manager's session/);
  const closed = await loket.call('closeShift', { counted: 120_000 });
  expect(await loket.call('shiftReport', null, { shiftId: closed.shift.id })).toMatchObject({ kind: 'Z' });
});

const SIZES: Size[] = [
  { width: 800, height: 480 },
  { width: 1024, height: 600 },
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
  { width: 600, height: 1024 },
];

/**
 * The layout's problems on screen; with the shift's modal dialog up, those of the dialog alone (the page behind it is
 * inert, and covered by it on purpose).
 */
async function problems(page: Page): Promise<string[]> {
  const modal = await dialog(page).isVisible();
  const behind = page.getByTestId('cashier');
  if (modal) await behind.evaluate((el) => el.setAttribute('aria-hidden', 'true'));
  try {
    return await layoutProblems(page);
  } finally {
    if (modal) await behind.evaluate((el) => el.removeAttribute('aria-hidden'));
  }
}

/** Every size: a screenshot per language and state, and nothing covered, cut off or under 44 px. */
async function checkSizes(page: Page, state: string, lang: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  for (const size of SIZES) {
    await resize(page, size);
    await page.screenshot({ path: `${SHOTS}/${lang}-${state}-${name(size)}.png` });
    expect(await problems(page), `${state}, ${lang}, ${name(size)}`).toEqual([]);
  }
  await resize(page, { width: 1280, height: 800 });
}

test('the shift screens hold at every size, in both languages', async ({ page, loket }) => {
  test.setTimeout(240_000);
  await openCashier(page, loket);
  for (const lang of ['id', 'en']) {
    await page.locator('#ui-lang').selectOption(lang);
    await expect(page.getByTestId('shift-button')).toHaveAttribute('data-shift', 'none');
    await checkSizes(page, 'header-none', lang);
    await page.getByTestId('shift-button').click();
    await checkSizes(page, 'open', lang);
    // Over the most Loket takes: the field's words name the rule with its maximum.
    await page.locator('#shift-float').fill('1000000000000000');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('shift-float-error')).toContainText('Rp100.000.000.000.000');
    await checkSizes(page, 'open-float-rule', lang);
    await page.locator('#shift-float').fill('200000');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('shift-done-button')).toBeVisible();
    await checkSizes(page, 'opened', lang);
    await page.getByTestId('shift-done-button').click();
    await checkSizes(page, 'header-open', lang);

    await page.getByTestId('shift-button').click();
    await checkSizes(page, 'menu', lang);
    await page.getByTestId('shift-menu-pay_out').click();
    await page.locator('#shift-amount').fill('150000');
    await page.locator('#shift-reason').fill('supplier');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('shift-manager-approval')).toBeVisible();
    await checkSizes(page, 'pay-out-pin', lang);
    await page.keyboard.press('Escape');
    // The limit is the shift's: after a pay-out of Rp60.000, one of Rp50.000 asks for the PIN, saying the sum.
    await loket.call('shiftMovement', { type: 'pay_out', amount: 60_000, reason: 'ice for the cooler' });
    await page.getByTestId('shift-button').click();
    await page.getByTestId('shift-menu-pay_out').click();
    await page.locator('#shift-amount').fill('50000');
    await page.locator('#shift-reason').fill('supplier');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('shift-manager-approval')).toContainText(
      /Rp110\.000.*Rp60\.000.*Rp50\.000.*Rp100\.000/,
    );
    await checkSizes(page, 'pay-out-pin-sum', lang);
    await page.keyboard.press('Escape');

    // A split sale whose QRIS part is pending: the close is refused, naming it; once it is paid, the shift closes.
    const sale = await loket.call('chargeSale', {
      cart: {
        lines: [{ lineId: 'a', name: 'Nasi campur', unitPrice: 36_000, qty: 1, taxCategory: 'exempt' }],
        saleDiscount: null,
      },
      tenders: [
        { kind: 'cash', handed: 20_000 },
        { kind: 'gateway', methodId: 'qris_dynamic' },
      ],
    });
    if (!sale.ok || !sale.order) throw new Error('the split sale has no order');
    await page.getByTestId('shift-button').click();
    await page.getByTestId('shift-menu-close').click();
    await page.getByTestId('shift-count-note100000').fill('2');
    await checkSizes(page, 'count', lang);
    await page.getByTestId('shift-count-review').click();
    await page.getByTestId('shift-close-submit').click();
    await expect(dialog(page).getByRole('alert')).toContainText(sale.order.id);
    // In the screen's own words, not the server's English.
    await expect(dialog(page).getByRole('alert')).not.toContainText('of this till');
    await checkSizes(page, 'close-refused', lang);
    await loket.call('simulatePayment', sale.order.id);
    await expect.poll(async () => (await loket.call('sale', { saleId: sale.saleId }))?.state).toBe('completed');
    await page.getByTestId('shift-close-submit').click();
    await expect(page.getByTestId('shift-reveal')).toBeVisible();
    await checkSizes(page, 'closed', lang);
    await page.getByTestId('shift-done-button').click();
  }
});
