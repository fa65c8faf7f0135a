import { render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DoctorReportInfo } from '../../src/bridge';
import { ClientContext } from '../../renderer/src/bridge/ClientContext';
import { resetDoctorStore, useDoctorStore } from '../../renderer/src/store/doctorStore';
import { resetWorkspaceStore } from '../../renderer/src/store/workspaceStore';
import { DoctorView } from '../../renderer/src/views/DoctorView';
import { createFakeInspectorClient } from './fakeInspectorClient';

beforeEach(() => {
  resetDoctorStore();
  resetWorkspaceStore();
});

describe('Doctor view progress', () => {
  it('lists each plugin as the runtime reports it done, and says when the report came from the cache', async () => {
    let release: (report: DoctorReportInfo) => void = () => {};
    const fake = createFakeInspectorClient({
      'doctor.run': () => new Promise<DoctorReportInfo>((resolve) => (release = resolve)),
    });
    render(
      <ClientContext.Provider value={fake.client}>
        <DoctorView />
      </ClientContext.Provider>,
    );
    const running = useDoctorStore.getState().run(fake.client);
    await waitFor(() => expect(fake.calls).toContain('doctor.run'));
    const progress = (phase: string, message: string, done: number) =>
      fake.emit({ type: 'event', topic: 'progress', payload: { taskId: 'doctor', phase, done, total: 2, message } });
    progress('loaded', 'recent-window', 1);
    progress('loaded', 'faulty-engines', 2);
    progress('driven', 'recent-window', 1);
    await waitFor(() => expect(screen.getAllByTestId('doctor-step')).toHaveLength(3));
    expect(screen.getAllByTestId('doctor-step').map((li) => li.textContent)).toEqual([
      'recent-window loaded',
      'faulty-engines loaded',
      'recent-window engines driven',
    ]);
    // another task's progress is not the doctor's
    fake.emit({ type: 'event', topic: 'progress', payload: { taskId: 'other', phase: 'x', done: 1, total: 1 } });
    release({
      version: 1,
      ok: true,
      executed: true,
      summary: { plugins: 2, errors: 0, warnings: 0, infos: 0 },
      config: { path: null, contextEngineSlot: null },
      plugins: [],
      findings: [],
      quarantines: [],
    });
    await running;
    expect(useDoctorStore.getState().steps).toHaveLength(3);
    expect(useDoctorStore.getState().cached).toBe(false);
  });
});
