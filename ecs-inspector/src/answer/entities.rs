//! `GET /api/entities`: the entity table, filtered by component names and
//! paged, in entity index order.

use ecs_core::diagnostics::ComponentType;
use ecs_core::{Entity, World};
use serde_json::json;

use crate::http::Response;
use crate::route::TableQuery;

use super::component_named;

pub(super) fn answer(world: &World, table: &TableQuery) -> Response {
    let resolve = |names: &[String]| -> Result<Vec<ComponentType<'_>>, Response> {
        names.iter().map(|n| component_named(world, n)).collect()
    };
    let (with, without) = match (resolve(&table.with), resolve(&table.without)) {
        (Ok(with), Ok(without)) => (with, without),
        (Err(response), _) | (_, Err(response)) => return response,
    };
    let keep =
        |e: &Entity| with.iter().all(|t| t.contains(*e)) && !without.iter().any(|t| t.contains(*e));
    // The smallest required type's holders are the fewest candidates.
    let mut matches: Vec<Entity> = match with.iter().min_by_key(|t| t.len()) {
        Some(driver) => driver.entities().iter().copied().filter(keep).collect(),
        None => world.query_ref::<Entity>().iter().filter(keep).collect(),
    };
    let total = matches.len();
    let rows = page_of(&mut matches, table.page, table.per_page);
    let rows: Vec<_> = rows.iter().filter_map(|&e| row(world, e)).collect();
    Response::json(&json!({
        "total": total,
        "page": table.page,
        "per_page": table.per_page,
        "rows": rows,
    }))
}

/// The entities of page `page`, in order, found without sorting them all:
/// two selections bring the page's entities to its place, then only those
/// are sorted.
fn page_of(matches: &mut [Entity], page: usize, per_page: usize) -> &[Entity] {
    let start = page.saturating_mul(per_page);
    if per_page == 0 || start >= matches.len() {
        return &[];
    }
    let end = start.saturating_add(per_page).min(matches.len());
    if start > 0 {
        matches.select_nth_unstable(start);
    }
    let rest = &mut matches[start..];
    let len = end - start;
    if len < rest.len() {
        rest.select_nth_unstable(len - 1);
    }
    let page = &mut rest[..len];
    page.sort_unstable();
    page
}

fn row(world: &World, entity: Entity) -> Option<serde_json::Value> {
    let inspection = world.inspect(entity).ok()?;
    let components: Vec<_> = inspection
        .components()
        .iter()
        .map(|c| json!({ "name": c.name(), "value": c.to_string() }))
        .collect();
    Some(json!({ "entity": entity.to_string(), "components": components }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(n: u32) -> Vec<Entity> {
        // Scrambled, as a storage's order is.
        (0..n)
            .map(|i| Entity::from_bits((1 << 32) | u64::from((i * 7) % n)).unwrap())
            .collect()
    }

    #[test]
    fn pages_are_consecutive_slices_of_the_sorted_entities() {
        let mut sorted = ids(23);
        sorted.sort_unstable();
        for per_page in [1, 5, 23, 50] {
            let mut seen = Vec::new();
            for page in 0..30 {
                seen.extend_from_slice(page_of(&mut ids(23), page, per_page));
            }
            assert_eq!(seen, sorted, "per_page {per_page}");
        }
        assert!(page_of(&mut ids(3), usize::MAX, usize::MAX).is_empty());
        assert!(
            page_of(&mut ids(3), 0, 0).is_empty(),
            "a max_page of 0 gives empty pages"
        );
    }
}
