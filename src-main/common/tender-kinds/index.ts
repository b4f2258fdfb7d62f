import type { TenderKind } from '../sale';
import { CASH } from './cash';
import { GATEWAY } from './gateway';
import type { TenderKindSpec } from './kind-spec';
import { OTHER } from './other';

export type { TenderKindSpec } from './kind-spec';

/** Every tender kind, one module each; the mapped type fails to compile while a kind of TENDER_KINDS lacks its module. */
const REGISTRY: { [K in TenderKind]: TenderKindSpec<K> } = { cash: CASH, gateway: GATEWAY, other: OTHER };

export function tenderKind<K extends TenderKind>(kind: K): TenderKindSpec<K> {
  return REGISTRY[kind];
}

/** Whether `kind` names a tender kind of the registry. */
export function isTenderKind(kind: unknown): kind is TenderKind {
  return typeof kind === 'string' && Object.hasOwn(REGISTRY, kind);
}

/** A kind's module, whichever kind. */
export type AnyTenderKindSpec = { [K in TenderKind]: TenderKindSpec<K> }[TenderKind];

export const TENDER_KIND_SPECS: readonly AnyTenderKindSpec[] = Object.values(REGISTRY);
