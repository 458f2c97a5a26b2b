import { useState } from 'preact/hooks';
import { api, type Session } from '../api.js';
import { ErrorText, Field, PageTitle, useAction } from '../ui.js';

export function LoginPage({ onLogin }: { onLogin: (session: Session) => void }) {
  const [name, setName] = useState('');
  const [secret, setSecret] = useState('');
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    const session = await action.run(() => api<Session>('POST', 'session', { name, secret }));
    if (session) onLogin(session);
  };
  return (
    <main id="main" class="login">
      <PageTitle>Fulfil console</PageTitle>
      <form onSubmit={submit}>
        <Field label="Operator name">
          <input
            name="name"
            autoComplete="username"
            required
            value={name}
            onInput={(event) => setName(event.currentTarget.value)}
          />
        </Field>
        <Field label="Secret">
          <input
            name="secret"
            type="password"
            autoComplete="current-password"
            required
            value={secret}
            onInput={(event) => setSecret(event.currentTarget.value)}
          />
        </Field>
        <ErrorText error={action.error} />
        <button type="submit" disabled={action.busy}>
          Log in
        </button>
      </form>
    </main>
  );
}
