//! A well-formedness check of the SVG and HTML the runner writes, shared by the end-to-end
//! tests that read its pages.

/// Every `<tag` is closed by `</tag>` or `/>`, skipping `<!...>`: a simple well-formedness
/// check for the SVG and HTML the runner writes.
pub fn balanced(text: &str) -> bool {
    let mut stack: Vec<String> = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find('<') {
        rest = &rest[i + 1..];
        let Some(end) = rest.find('>') else {
            return false;
        };
        let tag = &rest[..end];
        rest = &rest[end + 1..];
        if tag.starts_with('!') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            if stack.pop().as_deref() != Some(name.trim()) {
                return false;
            }
        } else if !tag.ends_with('/') {
            stack.push(tag.split_whitespace().next().unwrap_or("").to_string());
        }
    }
    stack.is_empty()
}
