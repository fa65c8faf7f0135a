// Shared styles first: each component's own stylesheet (imported beside it) comes after them and may refine them.
import './styles/tokens.css';
import './styles/base.css';
import './styles/utilities.css';
import './styles/view.css';
import './styles/controls.css';
import './styles/card.css';
import './styles/table.css';
import './styles/legend.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ClientContext } from './bridge/ClientContext';
import { createInspectorClient } from './bridge/createInspectorClient';
import { initTheme } from './theme';
import { AppFrame } from './views/AppFrame';

initTheme();
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
