import type { ApiMethodName } from '../../../src-main/common/api';

/**
 * Every method of the contract, spelled out here so the renderer bundle does not pull in the contract's zod
 * schemas; `satisfies` makes a method added to the contract fail to compile until it is listed.
 */
const METHODS = {
  appInfo: true,
  listMethods: true,
  listItems: true,
  createOrder: true,
  getOrder: true,
  listOrders: true,
  cancelOrder: true,
  retryOrder: true,
  simulatePayment: true,
  showOnDisplay: true,
  displayState: true,
  receipt: true,
  printReceipt: true,
  currentSale: true,
  parkSale: true,
  tillStatus: true,
  signIn: true,
  signOut: true,
  setupManager: true,
  unlockManager: true,
  lockManager: true,
  managerView: true,
  updateSettings: true,
  setSecret: true,
  clearSecret: true,
  testConnection: true,
  setMethodEnabled: true,
  importMethods: true,
  resetMethods: true,
  testPrint: true,
  switchMode: true,
  addStaff: true,
  updateStaff: true,
  changeOwnPin: true,
  auditLog: true,
  deskOrders: true,
  orderDetail: true,
  attentionQueue: true,
  resolveAttention: true,
  dayReport: true,
  closeDay: true,
  dayReportHtml: true,
  printDayReport: true,
  prepareExport: true,
} as const satisfies Record<ApiMethodName, true>;

export const API_METHODS = Object.keys(METHODS) as ApiMethodName[];
