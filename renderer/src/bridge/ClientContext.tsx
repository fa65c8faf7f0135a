import { createContext, useContext } from 'react';
import type { InspectorClient } from './InspectorClient';

export const ClientContext = createContext<InspectorClient | null>(null);

/** The InspectorApi client of this window (null when none could be created; views show why). */
export function useInspectorClient(): InspectorClient | null {
  return useContext(ClientContext);
}
