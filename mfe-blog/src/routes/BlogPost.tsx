import { useHead } from '@aitools/platform';
import '../styles.css';

export default function BlogPost() {
  useHead({ title: 'BlogPost | AI Tools Directory' });
  return (
    <main className="blog-stub">
      <h1>BlogPost</h1>
    </main>
  );
}
