import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DoctorProgressEvent, DoctorReportInfo } from '../../src/bridge';
import { ClientContext } from '../../renderer/src/bridge/ClientContext';
import { resetDoctorStore, useDoctorStore } from '../../renderer/src/store/doctorStore';
import { resetWorkspaceStore } from '../../renderer/src/store/workspaceStore';
import { DoctorView } from '../../renderer/src/views/DoctorView';
import { createFakeInspectorClient } from './fakeInspectorClient';

beforeEach(() => {
  resetDoctorStore();
  resetWorkspaceStore();
});

const REPORT: DoctorReportInfo = {
  version: 1,
  ok: false,
  executed: true,
  summary: { plugins: 3, errors: 2, warnings: 0, infos: 1 },
  config: { path: null, contextEngineSlot: null },
  plugins: [],
  findings: [],
  quarantines: [],
};

function renderDoctor() {
  let release: (report: DoctorReportInfo) => void = () => {};
  const fake = createFakeInspectorClient({
    'doctor.run': () => new Promise<DoctorReportInfo>((resolve) => (release = resolve)),
  });
  render(
    <ClientContext.Provider value={fake.client}>
      <DoctorView />
    </ClientContext.Provider>,
  );
  const step = (payload: DoctorProgressEvent) => fake.emit({ type: 'event', topic: 'doctor.progress', payload });
  return { fake, step, release: (report: DoctorReportInfo) => release(report) };
}

const rows = () => screen.getAllByTestId('doctor-step').map((li) => li.textContent);

describe('Doctor view progress', () => {
  it('says which plugin and engine it is on, n of N, and each plugin outcome as it is checked', async () => {
    const { fake, step, release } = renderDoctor();
    fireEvent.click(screen.getByRole('button', { name: 'Run doctor' }));
    await waitFor(() => expect(fake.calls).toContain('doctor.run'));
    expect(screen.getByText('Starting the check…')).toBeTruthy();
    const base = { plugins: 3 } as const;
    step({ ...base, phase: 'loading', pluginId: 'recent-window', plugin: 1, checked: 0 });
    step({ ...base, phase: 'loading', pluginId: 'faulty-engines', plugin: 2, checked: 0 });
    step({ ...base, phase: 'loaded', pluginId: 'recent-window', plugin: 1, checked: 0 });
    step({ ...base, phase: 'loading', pluginId: 'summary-tree', plugin: 3, checked: 0 });
    const outcome = (status: 'executed' | 'not-executed', errors: number, infos: number) => ({
      status,
      statusMessage: status,
      engines: status === 'executed' ? 24 : 0,
      errors,
      warnings: 0,
      infos,
    });
    step({
      ...base,
      phase: 'checked',
      pluginId: 'summary-tree',
      plugin: 3,
      checked: 1,
      outcome: outcome('not-executed', 0, 1),
    });
    step({
      ...base,
      phase: 'driving',
      pluginId: 'faulty-engines',
      plugin: 2,
      checked: 1,
      engine: { id: 'faulty-hang', index: 5, count: 24 },
    });
    await waitFor(() => expect(screen.getByTestId('doctor-progress-now').textContent).toMatch(/faulty-hang/));
    expect(screen.queryByText('Starting the check…')).toBeNull();
    expect(screen.getByTestId('doctor-progress-title').textContent).toBe('1 of 3 plugins checked');
    expect(screen.getByTestId('doctor-progress-now').textContent).toBe(
      'Driving plugin 2 of 3, faulty-engines: engine faulty-hang (5 of 24)…',
    );
    // in the plugins' order, each with what it is at: loading, the engine being driven, or its outcome
    expect(rows()).toEqual([
      'recent-window loaded; engines driven once every plugin is loaded',
      'faulty-engines driving faulty-hang (5 of 24)…',
      'summary-tree not-executed 0 errors, 0 warnings, 1 info',
    ]);
    step({
      ...base,
      phase: 'checked',
      pluginId: 'faulty-engines',
      plugin: 2,
      checked: 2,
      outcome: outcome('executed', 2, 0),
    });
    step({
      ...base,
      phase: 'checked',
      pluginId: 'recent-window',
      plugin: 1,
      checked: 3,
      outcome: outcome('not-executed', 0, 0),
    });
    // another task's progress is not the doctor's
    fake.emit({ type: 'event', topic: 'progress', payload: { taskId: 'other', phase: 'x', done: 1, total: 1 } });
    release(REPORT);
    await waitFor(() => expect(useDoctorStore.getState().running).toBe(false));
    expect(screen.getByTestId('doctor-progress-title').textContent).toBe('Checked 3 of 3 plugins');
    expect(screen.queryByTestId('doctor-progress-now')).toBeNull();
    expect(rows()).toEqual([
      'recent-window not-executed 0 errors, 0 warnings, 0 info',
      'faulty-engines executed 2 errors, 0 warnings, 0 info',
      'summary-tree not-executed 0 errors, 0 warnings, 1 info',
    ]);
    expect(useDoctorStore.getState().cached).toBe(false);
  });

  it('sends the call deadline typed in the view, and refuses one doctor.run would not take', async () => {
    const { fake, release } = renderDoctor();
    const field = screen.getByRole('spinbutton', { name: /Call deadline/ });
    expect((field as HTMLInputElement).value).toBe('10000');
    fireEvent.change(field, { target: { value: '50' } });
    expect(screen.getByRole('button', { name: 'Run doctor' }).hasAttribute('disabled')).toBe(true);
    expect(
      screen.getByText(/Call deadline "50": give a whole number of milliseconds from 100 to 600,000\./),
    ).toBeTruthy();
    fireEvent.change(field, { target: { value: '2500' } });
    fireEvent.click(screen.getByRole('button', { name: 'Run doctor' }));
    await waitFor(() => expect(fake.calls).toContain('doctor.run'));
    expect(fake.requests.find((r) => r.method === 'doctor.run')!.params).toMatchObject({ timeoutMs: 2500 });
    release(REPORT);
    await waitFor(() => expect(useDoctorStore.getState().running).toBe(false));
  });

  it('says when the report came from the cache', async () => {
    const { fake, release } = renderDoctor();
    fireEvent.click(screen.getByRole('button', { name: 'Run doctor' }));
    await waitFor(() => expect(fake.calls).toContain('doctor.run'));
    fake.emit({
      type: 'event',
      topic: 'progress',
      payload: { taskId: 'doctor', phase: 'cached', done: 1, total: 1, message: 'no plugin changed' },
    });
    release(REPORT);
    await screen.findByText('No plugin, config or consent changed since the last check: its report.');
  });
});
