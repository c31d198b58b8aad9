import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createApiClient } from '../../client/index';
import { ApiClientProvider } from './api-client';
import { App } from './App';
import { createQueryClient } from './query-client';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

const api = createApiClient({ baseUrl: '' });
const queryClient = createQueryClient();

createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <ApiClientProvider client={api}>
        <App />
      </ApiClientProvider>
    </QueryClientProvider>
  </StrictMode>,
);
