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
      Amounts are whole rupiah, digits only: PRICE 0 to 10000000000; cash and --discount from 0, other and gateway
      from 1, to 100000000000000.
      --manager NAME: a discount above the limit, approved by this manager's PIN (standard input with
      --manager-pin-stdin, else a hidden prompt; never on the command line), audited.
      Prints the lines, subtotal, discounts, tax lines, total, tenders and the order.

Exit codes: as order create; 2 also for a line, discount or tender that breaks a rule (nothing is sent).
`;

export const REFUND_USAGE = `A refund of a paid sale (docs/tenders.md, "Refunds"; docs/cli.md):

  refund SALE_ID [--line CODE[*QTY] ...] --reason R [--cash | --outside]
         [--manager NAME [--manager-pin-stdin]] [--json]
      CODE: the line's number on the sale's receipt (1, 2, …), or its SKU or barcode; QTY: how many of its units
      (default 1). Without --line, everything of the sale not refunded yet.
      --reason: why, 3 to 200 characters. --cash: from the drawer (this till's open shift pays it, and the drawer
      opens); --outside: refunded outside Loket (a transfer for a QRIS or e-wallet payment, the card terminal's own
      refund), for a sale a gateway or other tender paid. Default: cash when cash paid part of the sale, else outside.
      A refund is a manager's action: --manager NAME approves it with that manager's PIN (standard input with
      --manager-pin-stdin, else a hidden prompt); without it, this computer's account approves, as every manager
      action at the command line does (audited as cli:<user>).
      Prints the refund: its lines and amounts, the tax given back, what went back and how.

Exit codes: 0 ok, 2 invalid input naming the field and the rule (a refund over what was paid, an unknown line, no
reason, no open shift for cash, a drawer that cannot pay it, a PIN not accepted): nothing is written; 6 the order log
cannot be used, 7 another Loket process holds the data folder.
`;
