import { z } from 'zod';
import { DOCS_TOPICS, type DocsSection } from '../docs';
import type {
  AuditEntry,
  ConnectionReport,
  ManagerResult,
  ManagerSessionView,
  ManagerView,
  MethodImportResult,
  TillStatus,
} from '../manager';
import type { PrintResult } from '../print-result';
import { pinSchema, STAFF_NAME_MAX, STAFF_ROLES, type PinRefusal } from '../staff';
import { CASHIER, MANAGER, returns, type ApiRow } from './row';
import { session, staffId } from './shared-args';

const staffName = z
  .string()
  .min(1)
  .max(STAFF_NAME_MAX * 4);
const secretName = z.enum(['appkey', 'signing-secret']);
const SETTINGS_SECTIONS = ['store', 'gateway', 'printer', 'display', 'language', 'access', 'backup'] as const;
/** Browser mode reads at most 64 KiB per call; an operator's method list is a few kilobytes. */
const IMPORT_TEXT_MAX = 60_000;

/**
 * The manager service's methods (core/manager-service.ts): the till's people, the manager's screens, the audit log,
 * and the docs a screen links to.
 */
export const MANAGER_METHODS = {
  // Who sells at this till, and unlocking the manager's screens (docs/roles.md).
  tillStatus: {
    access: CASHIER,
    args: z.tuple([]),
    result: returns<TillStatus>(),
  },
  signIn: {
    access: CASHIER,
    args: z.tuple([staffId, pinSchema.nullable()]),
    result: returns<{ ok: true; till: TillStatus } | PinRefusal>(),
  },
  signOut: {
    access: CASHIER,
    args: z.tuple([]),
    result: returns<TillStatus>(),
  },
  setupManager: {
    access: CASHIER,
    args: z.tuple([z.object({ name: staffName, pin: pinSchema }).strict()]),
    result: returns<ManagerSessionView>(),
  },
  unlockManager: {
    access: CASHIER,
    args: z.tuple([staffId, pinSchema]),
    result: returns<{ ok: true; session: ManagerSessionView } | PinRefusal>(),
  },
  // The manager's screens: each takes the session token first (docs/settings.md).
  lockManager: {
    access: MANAGER,
    args: z.tuple([session]),
    result: returns<null>(),
  },
  managerView: {
    access: MANAGER,
    args: z.tuple([session]),
    result: returns<ManagerView>(),
  },
  updateSettings: {
    access: MANAGER,
    args: z.tuple([session, z.enum(SETTINGS_SECTIONS), z.record(z.string(), z.unknown()).nullable()]),
    result: returns<ManagerResult>(),
  },
  // The Tax section (docs/tax.md): the sale's settings, a partial object per section, checked in core/settings/.
  updateSaleSettings: {
    access: MANAGER,
    args: z.tuple([
      session,
      z
        .object({
          tax: z.record(z.string(), z.unknown()).optional(),
          cash: z.record(z.string(), z.unknown()).optional(),
          discounts: z.record(z.string(), z.unknown()).optional(),
        })
        .strict(),
    ]),
    result: returns<ManagerResult>(),
  },
  setSecret: {
    access: MANAGER,
    args: z.tuple([session, secretName, z.string().min(1).max(1000)]),
    result: returns<ManagerView>(),
  },
  clearSecret: {
    access: MANAGER,
    args: z.tuple([session, secretName]),
    result: returns<ManagerView>(),
  },
  testConnection: {
    access: MANAGER,
    args: z.tuple([session]),
    result: returns<ConnectionReport>(),
  },
  setMethodEnabled: {
    access: MANAGER,
    args: z.tuple([session, z.string().min(1).max(64), z.boolean()]),
    result: returns<ManagerResult>(),
  },
  importMethods: {
    access: MANAGER,
    args: z.tuple([session, z.enum(['json', 'csv']), z.string().max(IMPORT_TEXT_MAX)]),
    result: returns<MethodImportResult>(),
  },
  resetMethods: {
    access: MANAGER,
    args: z.tuple([session]),
    result: returns<ManagerView>(),
  },
  testPrint: {
    access: MANAGER,
    args: z.tuple([session]),
    result: returns<PrintResult>(),
  },
  switchMode: {
    access: MANAGER,
    args: z.tuple([session, z.enum(['training', 'live']), z.string().max(500)]),
    result: returns<ManagerResult>(),
  },
  addStaff: {
    access: MANAGER,
    args: z.tuple([session, z.object({ name: staffName, role: z.enum(STAFF_ROLES), pin: pinSchema }).strict()]),
    result: returns<ManagerView>(),
  },
  updateStaff: {
    access: MANAGER,
    args: z.tuple([
      session,
      staffId,
      z
        .object({
          name: staffName.optional(),
          role: z.enum(STAFF_ROLES).optional(),
          pin: pinSchema.optional(),
          active: z.boolean().optional(),
        })
        .strict(),
    ]),
    result: returns<ManagerView>(),
  },
  changeOwnPin: {
    access: MANAGER,
    args: z.tuple([session, pinSchema, pinSchema]),
    result: returns<{ ok: true } | PinRefusal>(),
  },
  /** A section of Loket's docs that a screen links to (common/docs.ts); anyone at the till may read it. */
  docsSection: {
    access: CASHIER,
    args: z.tuple([z.enum(DOCS_TOPICS)]),
    result: returns<DocsSection>(),
  },
  auditLog: {
    access: MANAGER,
    args: z.tuple([
      session,
      // before: the store's log's cursor; trainingBefore: the training log's, whose entries are merged in by time.
      z
        .object({
          limit: z.number().int().min(1).max(1000).optional(),
          before: z.number().int().optional(),
          trainingBefore: z.number().int().optional(),
        })
        .strict(),
    ]),
    result: returns<AuditEntry[]>(),
  },
} as const satisfies Record<string, ApiRow>;
