import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { loadPaymentCatalogue } from '../../src-main/core/catalogue';
import { enableMethod, importMethods, type ImportResult } from '../../src-main/core/settings/method-import';

const HEADER =
  'id,kind,provider,label_id,label_en,requires_customer_name,requires_phone,has_short_code,returns_back_url,enabled,min_amount,max_amount';
const QRIS_ROW = 'qris_dynamic,qris,QRIS,QRIS (semua aplikasi),QRIS (any app),false,false,false,true,true,1,10000000';

function problemsOf(result: ImportResult) {
  if (result.ok) throw new Error(`expected problems, got ${result.methods.length} methods`);
  return result.problems;
}

function methodsOf(result: ImportResult) {
  if (!result.ok) throw new Error(`expected methods, got ${JSON.stringify(result.problems, null, 2)}`);
  return result.methods;
}

describe('importMethods: JSON in the catalogue schema', () => {
  it('the bundled catalogue imports as itself', () => {
    const text = readFileSync(new URL('../../resources/payment-methods.json', import.meta.url), 'utf8');
    expect(methodsOf(importMethods(text, 'json'))).toEqual(loadPaymentCatalogue());
    // With a BOM, as Notepad saves it.
    expect(methodsOf(importMethods('\uFEFF' + text, 'json'))).toEqual(loadPaymentCatalogue());
  });

  it('every problem, with its row (array index + 1) and field; nothing imported', () => {
    const rows = [
      {
        id: 'qris_dynamic',
        kind: 'qris',
        provider: 'QRIS',
        label: { id: 'QRIS', en: 'QRIS' },
        requiresCustomerName: false,
        enabled: true,
      },
      {
        id: 'qris_dynamic',
        kind: 'qrcode',
        provider: 'QRIS',
        label: { id: '', en: 'QRIS' },
        requiresCustomerName: 'no',
        enabled: true,
        colour: 'red',
      },
      'va_bca',
      {
        id: 'ewallet_ovo',
        kind: 'ewallet_redirect',
        provider: 'OVO',
        label: { id: 'OVO', en: 'OVO' },
        requiresCustomerName: false,
        enabled: true,
        minAmount: 50_000,
        maxAmount: 10_000,
      },
    ];
    expect(problemsOf(importMethods(JSON.stringify(rows), 'json'))).toEqual([
      {
        row: 2,
        field: 'kind',
        message:
          'row 2, kind: one of qris, ewallet_redirect, ewallet_qr_redirect, airtime_sms, airtime, va_bank, va_cstore',
      },
      {
        row: 2,
        field: 'label.id',
        message: 'row 2, label.id: required: the name the cashier sees in Bahasa Indonesia',
      },
      { row: 2, field: 'requiresCustomerName', message: 'row 2, requiresCustomerName: true or false' },
      {
        row: 2,
        field: 'colour',
        message: expect.stringMatching(/^row 2, colour: not a field of a payment method \(the fields are: id, kind/),
      },
      { row: 2, field: 'id', message: 'row 2, id: qris_dynamic is already on row 1; each method once' },
      { row: 3, field: '(row)', message: 'row 3: must be an object with the fields of a payment method' },
      { row: 4, field: 'minAmount', message: 'row 4, minAmount: must not be more than maxAmount' },
    ]);
  });

  it('the file as a whole: not JSON, not an array, empty, or no method enabled (row 0)', () => {
    expect(problemsOf(importMethods('[{"id": "qris_dynamic",', 'json'))).toEqual([
      { row: 0, field: '(file)', message: expect.stringMatching(/^not valid JSON \(/) },
    ]);
    expect(problemsOf(importMethods('{"methods": []}', 'json'))[0]?.message).toMatch(/^must be a JSON array/);
    expect(problemsOf(importMethods('[]', 'json'))[0]?.message).toMatch(/^the list is empty/);
    expect(problemsOf(importMethods('', 'json'))).toEqual([
      { row: 0, field: '(file)', message: 'the file is empty: it must list the payment methods' },
    ]);
    const off = loadPaymentCatalogue().map((m) => ({ ...m, enabled: false }));
    expect(problemsOf(importMethods(JSON.stringify(off), 'json'))).toEqual([
      {
        row: 0,
        field: 'enabled',
        message: 'enabled: no method is enabled: enable at least one (else the till cannot take payment)',
      },
    ]);
  });
});

describe('importMethods: CSV as a spreadsheet writes it', () => {
  it('comma-separated, with the schema defaults for optional columns', () => {
    const csv = `${HEADER}\n${QRIS_ROW}\nairtime_xl,airtime_sms,XL,XL (pulsa),XL (airtime),no,yes,no,yes,yes,1000,500000\n`;
    expect(methodsOf(importMethods(csv, 'csv'))).toEqual([
      {
        id: 'qris_dynamic',
        kind: 'qris',
        provider: 'QRIS',
        label: { id: 'QRIS (semua aplikasi)', en: 'QRIS (any app)' },
        requiresCustomerName: false,
        requiresPhone: false,
        hasShortCode: false,
        returnsBackUrl: true,
        enabled: true,
        minAmount: 1,
        maxAmount: 10_000_000,
      },
      {
        id: 'airtime_xl',
        kind: 'airtime_sms',
        provider: 'XL',
        label: { id: 'XL (pulsa)', en: 'XL (airtime)' },
        requiresCustomerName: false,
        requiresPhone: true,
        hasShortCode: false,
        returnsBackUrl: true,
        enabled: true,
        minAmount: 1000,
        maxAmount: 500_000,
      },
    ]);
    // Only the required columns: the rest take the catalogue's defaults.
    const minimal =
      'id,kind,provider,label_id,label_en,requires_customer_name,enabled\nva_bri,va_bank,BRI,BRI VA,BRI VA,0,1\n';
    expect(methodsOf(importMethods(minimal, 'csv'))).toEqual([
      {
        id: 'va_bri',
        kind: 'va_bank',
        provider: 'BRI',
        label: { id: 'BRI VA', en: 'BRI VA' },
        requiresCustomerName: false,
        requiresPhone: false,
        hasShortCode: false,
        returnsBackUrl: true,
        enabled: true,
        minAmount: 1,
        maxAmount: 100_000_000,
      },
    ]);
  });

  it('semicolon-separated with a BOM and CRLF, as Excel in an Indonesian locale saves it; amounts grouped by dots', () => {
    const csv =
      '\uFEFF' +
      HEADER.replace(/,/g, ';') +
      '\r\n' +
      'va_bca;va_bank;BCA;BCA Virtual Account;BCA virtual account;ya;tidak;tidak;ya;ya;10.000;50.000.000\r\n' +
      'qris_dynamic;qris;QRIS;QRIS, semua aplikasi;QRIS, any app;FALSE;False;0;1;TRUE;1;10000000\r\n';
    const methods = methodsOf(importMethods(csv, 'csv'));
    expect(methods.map((m) => [m.id, m.requiresCustomerName, m.enabled, m.minAmount, m.maxAmount])).toEqual([
      ['va_bca', true, true, 10_000, 50_000_000],
      ['qris_dynamic', false, true, 1, 10_000_000],
    ]);
    // A comma inside a ;-separated value needs no quotes.
    expect(methods[1]?.label).toEqual({ id: 'QRIS, semua aplikasi', en: 'QRIS, any app' });
  });

  it('quoted names with the delimiter, quotes and a line break inside: one row as a spreadsheet shows it', () => {
    const csv =
      `${HEADER}\n` +
      'va_mandiri,va_bank,"Bank Mandiri, Tbk","Mandiri ""Livin""","Mandiri\nvirtual account",false,false,false,true,true,10000,50000000\n' +
      '\n' +
      'ewallet_ovo,ewallet_redirect,OVO,OVO,OVO,false,false,false,true,true,100,not-a-number\n';
    const problems = problemsOf(importMethods(csv, 'csv'));
    // Row 2 holds two lines of the file; the blank line is row 3; the bad amount is on row 4.
    expect(problems).toEqual([
      {
        row: 4,
        field: 'max_amount',
        message: 'row 4, max_amount: a whole number of rupiah, at least 1 (e.g. 10000 or 10.000) (got "not-a-number")',
      },
    ]);
    const fixed = methodsOf(importMethods(csv.replace('not-a-number', '10000000'), 'csv'));
    expect(fixed[0]).toMatchObject({
      provider: 'Bank Mandiri, Tbk',
      label: { id: 'Mandiri "Livin"', en: 'Mandiri\nvirtual account' },
    });
  });

  it('every problem of every row, each with its row and column; unknown columns; duplicates at the second row', () => {
    const csv = [
      `${HEADER},colour`,
      'QRIS,qrcode,,QRIS,QRIS,maybe,false,false,true,true,0,1.5,red',
      QRIS_ROW + ',blue',
      'qris_dynamic,qris,QRIS,QRIS,QRIS,true,false,false,true,true,1,10000000,green,extra',
      'airtime_tri,airtime,Tri,Tri,Tri,false,true,true,true,true,5000,1000,',
    ].join('\n');
    expect(problemsOf(importMethods(csv, 'csv'))).toEqual([
      {
        row: 1,
        field: 'colour',
        message: expect.stringMatching(/^row 1, colour: unknown column \(the columns are: id, kind, provider, /),
      },
      { row: 2, field: 'provider', message: 'row 2, provider: required: the bank, carrier, wallet or store name' },
      {
        row: 2,
        field: 'requires_customer_name',
        message: 'row 2, requires_customer_name: true or false (also yes/no, ya/tidak, 1/0) (got "maybe")',
      },
      {
        row: 2,
        field: 'max_amount',
        message: 'row 2, max_amount: a whole number of rupiah, at least 1 (e.g. 10000 or 10.000) (got "1.5")',
      },
      { row: 2, field: 'id', message: 'row 2, id: lowercase <type>_<name>, e.g. va_bca or ewallet_ovo' },
      {
        row: 2,
        field: 'kind',
        message:
          'row 2, kind: one of qris, ewallet_redirect, ewallet_qr_redirect, airtime_sms, airtime, va_bank, va_cstore',
      },
      {
        row: 2,
        field: 'min_amount',
        message: 'row 2, min_amount: a whole number of rupiah, at least 1 (e.g. 10000 or 10.000)',
      },
      {
        row: 4,
        field: '(row)',
        message: 'row 4: has 14 values but the header has 13 columns (a , inside a value needs quotes)',
      },
      {
        row: 4,
        field: 'requires_customer_name',
        message: "row 4, requires_customer_name: can be true only when kind is va_bank (a bank's virtual account)",
      },
      { row: 4, field: 'id', message: 'row 4, id: qris_dynamic is already on row 3; each method once' },
      { row: 5, field: 'min_amount', message: 'row 5, min_amount: must not be more than max_amount' },
      {
        row: 5,
        field: 'has_short_code',
        message:
          'row 5, has_short_code: can be true only when kind is airtime_sms (the carriers that answer with a short code)',
      },
    ]);
  });

  it('header problems: a missing required column, a column twice; an empty file; a header without rows', () => {
    expect(
      problemsOf(
        importMethods('id,kind,provider,label_en,enabled,kind\nqris_dynamic,qris,QRIS,QRIS,true,qris\n', 'csv'),
      ),
    ).toEqual([
      { row: 1, field: 'kind', message: 'row 1, kind: is in the header twice (columns 2 and 6)' },
      { row: 1, field: 'label_id', message: 'row 1, label_id: missing column: the header must name it' },
      {
        row: 1,
        field: 'requires_customer_name',
        message: 'row 1, requires_customer_name: missing column: the header must name it',
      },
    ]);
    expect(problemsOf(importMethods('', 'csv'))).toEqual([
      { row: 0, field: '(file)', message: 'the file is empty: it must list the payment methods' },
    ]);
    expect(problemsOf(importMethods('\uFEFF\r\n\r\n', 'csv'))[0]?.field).toBe('(file)');
    expect(problemsOf(importMethods(`${HEADER}\r\n`, 'csv'))).toEqual([
      { row: 2, field: '(row)', message: 'row 2: no payment methods: the file has a header but no rows' },
    ]);
  });

  it('a broken quote is a problem at its row; no method enabled is one for the file', () => {
    expect(problemsOf(importMethods(`${HEADER}\n${QRIS_ROW}\nva_bni,va_bank,"BNI,BNI,BNI,false\n`, 'csv'))).toEqual([
      { row: 3, field: '(row)', message: 'row 3: a quoted value is not closed: a " is missing' },
    ]);
    expect(problemsOf(importMethods(`${HEADER}\n${QRIS_ROW.replace(/true,1,/, 'false,1,')}\n`, 'csv'))).toEqual([
      {
        row: 0,
        field: 'enabled',
        message: 'enabled: no method is enabled: enable at least one (else the till cannot take payment)',
      },
    ]);
  });
});

describe('enableMethod', () => {
  const methods = loadPaymentCatalogue();

  it('turns one method on or off and leaves the others and the input alone', () => {
    const result = enableMethod(methods, 'va_cimb', true);
    if (!result.ok) throw new Error('expected ok');
    expect(result.changed).toBe(true);
    expect(result.methods.find((m) => m.id === 'va_cimb')?.enabled).toBe(true);
    expect(methods.find((m) => m.id === 'va_cimb')?.enabled).toBe(false);
    expect(result.methods.filter((m) => m.id !== 'va_cimb')).toEqual(methods.filter((m) => m.id !== 'va_cimb'));
    const same = enableMethod(methods, 'qris_dynamic', true);
    expect(same.ok && same.changed).toBe(false);
  });

  it('refuses an unknown id, and disabling the last enabled method', () => {
    expect(enableMethod(methods, 'va_nope', true)).toEqual({
      ok: false,
      issues: [
        {
          field: 'paymentMethods.va_nope',
          message: expect.stringMatching(/^paymentMethods\.va_nope: no such payment method/),
        },
      ],
    });
    const onlyQris = methods.map((m) => ({ ...m, enabled: m.id === 'qris_dynamic' }));
    expect(enableMethod(onlyQris, 'qris_dynamic', false)).toEqual({
      ok: false,
      issues: [
        {
          field: 'paymentMethods.qris_dynamic.enabled',
          message:
            'paymentMethods.qris_dynamic.enabled: QRIS (any app) is the only enabled payment method; enable another one ' +
            'first (a till with no enabled method cannot take payment)',
        },
      ],
    });
    const result = enableMethod(onlyQris, 'va_bri', true);
    expect(result.ok).toBe(true);
  });
});
