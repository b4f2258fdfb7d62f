// Runs in a sandboxed preload: only 'electron' (a restricted subset) can be required at runtime,
// so everything else of ours is bundled in, and only type information comes from src-main/common/api.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { ApiArgs, ApiEnvelope, ApiMethodName, ApiResult, LiveEvent, LoketBridge } from '../src-main/common/api';
import { ipcChannel, ipcEventChannel, ipcSaveDownloadChannel } from '../src-main/common/ipc-channels';
import type { SaveResult } from '../src-main/common/reports';

function invoke<M extends ApiMethodName>(method: M, ...args: ApiArgs<M>): Promise<ApiEnvelope<ApiResult<M>>> {
  return ipcRenderer.invoke(ipcChannel(method), ...args) as Promise<ApiEnvelope<ApiResult<M>>>;
}

// Each method is spelled out (no generic proxy) so the renderer can reach exactly these channels and no others.
const api = {
  appInfo: (...args) => invoke('appInfo', ...args),
  listMethods: (...args) => invoke('listMethods', ...args),
  listItems: (...args) => invoke('listItems', ...args),
  createOrder: (...args) => invoke('createOrder', ...args),
  getOrder: (...args) => invoke('getOrder', ...args),
  listOrders: (...args) => invoke('listOrders', ...args),
  cancelOrder: (...args) => invoke('cancelOrder', ...args),
  retryOrder: (...args) => invoke('retryOrder', ...args),
  simulatePayment: (...args) => invoke('simulatePayment', ...args),
  showOnDisplay: (...args) => invoke('showOnDisplay', ...args),
  displayState: (...args) => invoke('displayState', ...args),
  receipt: (...args) => invoke('receipt', ...args),
  printReceipt: (...args) => invoke('printReceipt', ...args),
  paymentSlip: (...args) => invoke('paymentSlip', ...args),
  printPaymentSlip: (...args) => invoke('printPaymentSlip', ...args),
  currentSale: (...args) => invoke('currentSale', ...args),
  parkSale: (...args) => invoke('parkSale', ...args),
  latePayments: (...args) => invoke('latePayments', ...args),
  acknowledgeLatePayment: (...args) => invoke('acknowledgeLatePayment', ...args),
  searchProducts: (...args) => invoke('searchProducts', ...args),
  productByCode: (...args) => invoke('productByCode', ...args),
  currentCart: (...args) => invoke('currentCart', ...args),
  saveCart: (...args) => invoke('saveCart', ...args),
  quoteSale: (...args) => invoke('quoteSale', ...args),
  chargeSale: (...args) => invoke('chargeSale', ...args),
  saleOf: (...args) => invoke('saleOf', ...args),
  sale: (...args) => invoke('sale', ...args),
  voidSale: (...args) => invoke('voidSale', ...args),
  // The struk of a sale (tenders-ui).
  saleReceipt: (...args) => invoke('saleReceipt', ...args),
  printSaleReceipt: (...args) => invoke('printSaleReceipt', ...args),
  tillStatus: (...args) => invoke('tillStatus', ...args),
  signIn: (...args) => invoke('signIn', ...args),
  signOut: (...args) => invoke('signOut', ...args),
  setupManager: (...args) => invoke('setupManager', ...args),
  unlockManager: (...args) => invoke('unlockManager', ...args),
  lockManager: (...args) => invoke('lockManager', ...args),
  managerView: (...args) => invoke('managerView', ...args),
  updateSettings: (...args) => invoke('updateSettings', ...args),
  setSecret: (...args) => invoke('setSecret', ...args),
  clearSecret: (...args) => invoke('clearSecret', ...args),
  testConnection: (...args) => invoke('testConnection', ...args),
  setMethodEnabled: (...args) => invoke('setMethodEnabled', ...args),
  importMethods: (...args) => invoke('importMethods', ...args),
  resetMethods: (...args) => invoke('resetMethods', ...args),
  testPrint: (...args) => invoke('testPrint', ...args),
  switchMode: (...args) => invoke('switchMode', ...args),
  addStaff: (...args) => invoke('addStaff', ...args),
  updateStaff: (...args) => invoke('updateStaff', ...args),
  changeOwnPin: (...args) => invoke('changeOwnPin', ...args),
  auditLog: (...args) => invoke('auditLog', ...args),
  deskOrders: (...args) => invoke('deskOrders', ...args),
  orderDetail: (...args) => invoke('orderDetail', ...args),
  attentionQueue: (...args) => invoke('attentionQueue', ...args),
  resolveAttention: (...args) => invoke('resolveAttention', ...args),
  dayReport: (...args) => invoke('dayReport', ...args),
  closeDay: (...args) => invoke('closeDay', ...args),
  dayReportHtml: (...args) => invoke('dayReportHtml', ...args),
  printDayReport: (...args) => invoke('printDayReport', ...args),
  prepareExport: (...args) => invoke('prepareExport', ...args),
  docsSection: (...args) => invoke('docsSection', ...args),
  currentShift: (...args) => invoke('currentShift', ...args),
  openShift: (...args) => invoke('openShift', ...args),
  shiftMovement: (...args) => invoke('shiftMovement', ...args),
  closeShift: (...args) => invoke('closeShift', ...args),
  shiftReport: (...args) => invoke('shiftReport', ...args),
  shiftReportHtml: (...args) => invoke('shiftReportHtml', ...args),
  noSale: (...args) => invoke('noSale', ...args),
  printShiftReport: (...args) => invoke('printShiftReport', ...args),
  storeLink: (...args) => invoke('storeLink', ...args),
  storeDayReport: (...args) => invoke('storeDayReport', ...args),
  prepareStoreExport: (...args) => invoke('prepareStoreExport', ...args),
  onEvent: (listener: (event: LiveEvent) => void) => {
    // The IPC event object stays here: the page gets plain data only.
    const forward = (_event: IpcRendererEvent, payload: LiveEvent) => listener(payload);
    ipcRenderer.on(ipcEventChannel, forward);
    return () => ipcRenderer.off(ipcEventChannel, forward);
  },
  saveDownload: (downloadId: string) => ipcRenderer.invoke(ipcSaveDownloadChannel, downloadId) as Promise<SaveResult>,
} satisfies LoketBridge;

contextBridge.exposeInMainWorld('loket', api);
