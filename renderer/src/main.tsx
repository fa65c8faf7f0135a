import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ClientContext } from './bridge/ClientContext';
import { createInspectorClient } from './bridge/createInspectorClient';
import { AppFrame } from './views/AppFrame';
import './styles.css';

const choice = createInspectorClient(window);
const root = document.getElementById('root');
if (!root) throw new Error('renderer/index.html has no #root element.');

createRoot(root).render(
  <StrictMode>
    <ClientContext.Provider value={choice.ok ? choice.client : null}>
      <AppFrame clientProblem={choice.ok ? null : choice.reason} />
    </ClientContext.Provider>
  </StrictMode>,
);
