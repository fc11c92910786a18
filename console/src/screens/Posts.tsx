/** The editors' posts: the list (filled in by the posts API). */
export function PostsScreen() {
  return <h1>Posts</h1>;
}
