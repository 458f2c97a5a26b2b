import { Banner } from '../ui/banner.js';
import { Button } from '../ui/button.js';

/** A secret the server will never show again: shown once, with what it belongs to. */
export function Secret({
  of,
  secret,
  onClose,
}: {
  of: string;
  secret: string;
  onClose: () => void;
}) {
  return (
    <Banner tone="success" title={`The secret of ${of}`}>
      <p>Copy it now: it is shown only this once.</p>
      <code class="token-secret">{secret}</code>
      <div>
        <Button onClick={onClose}>I have copied it</Button>
      </div>
    </Banner>
  );
}
