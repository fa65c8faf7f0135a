import type { ReactNode } from 'react';
import './Notice.css';

export interface NoticeProps {
  tone: 'error' | 'info';
  children: ReactNode;
}

export function Notice({ tone, children }: NoticeProps) {
  return (
    <div className={`notice notice--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}
