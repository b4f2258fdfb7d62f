// The usage of the catalogue and sale commands, apart from them: cli.ts loads the commands only when they are run.

export const CATALOGUE_USAGE = `The catalogue of products (docs/catalogue.md):

  catalogue import FILE [--dry-run] [--json]
      merges a CSV (, or ;, UTF-8 with or without BOM) or XLSX file into the catalogue by SKU, all or nothing:
      any invalid row names its line, column and rule, and nothing is imported. --dry-run checks and counts only.
  catalogue export --out FILE [--format csv|xlsx] [--delimiter ,|;] [--bom] [--force]
      every product, in the format import reads (xlsx when FILE ends in .xlsx).
  catalogue list [--search TEXT] [--limit N] [--json]
      active products; --search finds a name (a part of it, case and accents ignored), a SKU or a barcode.

Exit codes: 0 ok, 2 invalid input (the file's issues, one a line, on stderr), 7 another Loket process holds the
data folder (import only).
`;

export const SALE_USAGE = `A sale of several lines (docs/sale.md; the gateway and the data folder as for order create):

  sale --line CODE[*QTY] [--line CODE[*QTY] ...] [--discount AMOUNT|PCT%]
       (--method METHOD_ID | --pay TENDER [--pay TENDER ...]) [--customer-name N] [--phone P]
       [--manager NAME [--manager-pin-stdin]] [--json]
      CODE: a barcode or a SKU of the catalogue, or free:NAME=PRICE (a line typed in, the default tax category).
      QTY: 1 to 9999 (default 1). --discount: the sale's discount, in rupiah (5000) or percent (10%, 12.5%).
      --method: one gateway payment of the whole sale (e.g. qris_dynamic).
      --pay cash:AMOUNT (the cash handed over), --pay METHOD_ID[:AMOUNT] (a gateway payment; no amount: what is
      still due), --pay other:AMOUNT:REFERENCE (a card terminal's slip, a bank transfer). Several --pay split it.
      --manager NAME: a discount above the limit, approved by this manager's PIN (standard input with
      --manager-pin-stdin, else a hidden prompt; never on the command line), audited.
      Prints the lines, subtotal, discounts, tax lines, total, tenders and the order.

Exit codes: as order create; 2 also for a line, discount or tender that breaks a rule (nothing is sent).
`;
