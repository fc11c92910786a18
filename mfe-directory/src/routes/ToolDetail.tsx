import { useHead } from '@aitools/platform';
import '../styles.css';

export default function ToolDetail() {
  useHead({ title: 'ToolDetail | AI Tools Directory' });
  return (
    <main className="directory-stub">
      <h1>ToolDetail</h1>
    </main>
  );
}
