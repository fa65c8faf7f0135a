/**
 * A recording fake of the parts of Electron the shell touches, shared by the main-process tests
 * (`vi.mock('electron', () => import('./fakeElectron').then((m) => m.electronModule()))`). Reset before every test.
 */
type Listener = (...args: unknown[]) => unknown;

const state = {
  calls: [] as string[],
  singleInstance: true,
  isPackaged: true,
  userData: '',
  appListeners: new Map<string, Listener>(),
  windows: [] as Array<{
    options: Record<string, any>;
    listeners: Map<string, Listener>;
    loadedUrl?: string;
    maximized: boolean;
    focused: number;
    webContents?: { listeners: Map<string, Listener>; sent: unknown[][]; loading: boolean };
  }>,
  ipcHandlers: new Map<string, Listener>(),
  protocolHandlers: new Map<string, Listener>(),
  privilegedSchemes: [] as unknown[],
  permissionRequestHandler: undefined as Listener | undefined,
  permissionCheckHandler: undefined as Listener | undefined,
  displayMediaHandler: undefined as Listener | undefined,
  devicePermissionHandler: undefined as Listener | undefined,
  messageBoxes: [] as { parent: unknown; options: Record<string, any> }[],
  messageBoxResponse: 1,
  headersReceived: undefined as Listener | undefined,
  quit: 0,
  displays: [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }],
  normalBounds: { x: 100, y: 80, width: 1300, height: 900 },
  menu: null as { template: any[] } | null,
  recentDocuments: [] as string[],
  dialogAnswer: { canceled: true, filePaths: [] as string[] },
  dialogOptions: [] as Record<string, any>[],
  themeSource: 'system',
};
/** The window's WebContents: what the shell registers on it and what it sends to the page. */
class WebContents {
  listeners = new Map<string, Listener>();
  sent: unknown[][] = [];
  loading = false;
  on(name: string, fn: Listener) {
    this.listeners.set(name, fn);
    return this;
  }
  once(name: string, fn: Listener) {
    this.listeners.set(name, fn);
    return this;
  }
  isDestroyed() {
    return false;
  }
  isLoading() {
    return this.loading;
  }
  send(...args: unknown[]) {
    this.sent.push(args);
  }
}
class BrowserWindow {
  webContents = new WebContents();
  record: (typeof state.windows)[number];
  constructor(options: Record<string, any>) {
    this.record = { options, listeners: new Map(), maximized: false, focused: 0, webContents: this.webContents };
    state.windows.push(this.record);
    state.calls.push('new BrowserWindow');
  }
  maximize() {
    this.record.maximized = true;
  }
  isMaximized() {
    return this.record.maximized;
  }
  isMinimized() {
    return false;
  }
  restore() {}
  focus() {
    this.record.focused += 1;
  }
  show() {}
  isDestroyed() {
    return false;
  }
  getNormalBounds() {
    return state.normalBounds;
  }
  on(name: string, fn: Listener) {
    this.record.listeners.set(name, fn);
    return this;
  }
  once(name: string, fn: Listener) {
    this.record.listeners.set(name, fn);
    return this;
  }
  async loadURL(url: string) {
    this.record.loadedUrl = url;
  }
}
const module = {
  app: {
    get isPackaged() {
      return state.isPackaged;
    },
    requestSingleInstanceLock: () => {
      state.calls.push('requestSingleInstanceLock');
      return state.singleInstance;
    },
    quit: () => {
      state.quit += 1;
    },
    on: (name: string, fn: Listener) => {
      state.appListeners.set(name, fn);
    },
    whenReady: async () => {
      state.calls.push('whenReady');
    },
    getPath: (name: string) => {
      if (name !== 'userData') throw new Error(name);
      return state.userData;
    },
    addRecentDocument: (file: string) => state.recentDocuments.push(file),
  },
  Menu: {
    buildFromTemplate: (template: any[]) => ({ template }),
    setApplicationMenu: (menu: { template: any[] }) => {
      state.menu = menu;
    },
  },
  dialog: {
    showOpenDialog: async (_window: unknown, options: Record<string, any>) => {
      state.dialogOptions.push(options);
      return state.dialogAnswer;
    },
    showMessageBox: async (...args: unknown[]) => {
      const options = args[args.length - 1] as Record<string, any>;
      state.messageBoxes.push({ parent: args.length > 1 ? args[0] : undefined, options });
      return { response: state.messageBoxResponse, checkboxChecked: false };
    },
  },
  BrowserWindow,
  ipcMain: { handle: (channel: string, fn: Listener) => state.ipcHandlers.set(channel, fn) },
  protocol: {
    registerSchemesAsPrivileged: (schemes: unknown[]) => {
      state.calls.push('registerSchemesAsPrivileged');
      state.privilegedSchemes.push(...schemes);
    },
    handle: (scheme: string, fn: Listener) => state.protocolHandlers.set(scheme, fn),
  },
  session: {
    defaultSession: {
      setPermissionRequestHandler: (fn: Listener) => {
        state.permissionRequestHandler = fn;
      },
      setPermissionCheckHandler: (fn: Listener) => {
        state.permissionCheckHandler = fn;
      },
      setDisplayMediaRequestHandler: (fn: Listener) => {
        state.displayMediaHandler = fn;
      },
      setDevicePermissionHandler: (fn: Listener) => {
        state.devicePermissionHandler = fn;
      },
      webRequest: {
        onHeadersReceived: (fn: Listener) => {
          state.headersReceived = fn;
        },
      },
    },
  },
  screen: { getAllDisplays: () => state.displays },
  nativeTheme: {
    shouldUseDarkColors: false,
    get themeSource() {
      return state.themeSource;
    },
    set themeSource(value: string) {
      state.themeSource = value;
    },
  },
};
export const fake = { state, module };

export function electronModule() {
  return { ...fake.module, default: fake.module };
}

/** Back to a fresh app: no windows, listeners or handlers; `userData` is where the app keeps its files. */
export function resetFake(userData: string): void {
  const s = fake.state;
  Object.assign(s, {
    calls: [],
    singleInstance: true,
    isPackaged: true,
    userData,
    quit: 0,
    windows: [],
    privilegedSchemes: [],
    permissionRequestHandler: undefined,
    permissionCheckHandler: undefined,
    displayMediaHandler: undefined,
    devicePermissionHandler: undefined,
    messageBoxes: [],
    messageBoxResponse: 1,
    headersReceived: undefined,
    displays: [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }],
    normalBounds: { x: 100, y: 80, width: 1300, height: 900 },
    menu: null,
    recentDocuments: [],
    dialogAnswer: { canceled: true, filePaths: [] },
    dialogOptions: [],
    themeSource: 'system',
  });
  s.appListeners.clear();
  s.ipcHandlers.clear();
  s.protocolHandlers.clear();
}
