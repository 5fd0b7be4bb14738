import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/components/app';
import '@/components/styles/tokens.css';
import '@/components/styles/app.css';

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
