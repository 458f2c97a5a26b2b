import { useState } from 'preact/hooks';
import { api, type Session } from '../api.js';
import { ErrorBanner } from '../ui/banner.js';
import { Button } from '../ui/button.js';
import { Field } from '../ui/field.js';
import { useAction } from '../ui/load.js';

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
      <form class="login__card stack" onSubmit={submit}>
        <h1>Fulfil console</h1>
        <p class="subtle">Log in with the name and secret an admin gave you.</p>
        <Field label="Operator name" size="full">
          <input
            name="name"
            autoComplete="username"
            required
            value={name}
            onInput={(event) => setName(event.currentTarget.value)}
          />
        </Field>
        <Field label="Secret" size="full">
          <input
            name="secret"
            type="password"
            autoComplete="current-password"
            required
            value={secret}
            onInput={(event) => setSecret(event.currentTarget.value)}
          />
        </Field>
        <ErrorBanner error={action.error} />
        <Button type="submit" variant="primary" busy={action.busy}>
          Log in
        </Button>
      </form>
    </main>
  );
}
