//! What a request asks for, parsed and checked on the connection's thread,
//! so that the game's thread only ever meets well-formed questions.

use ecs_core::Entity;

use crate::http::{Method, Request, Response};
use crate::page;

/// Where a request goes.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Route {
    /// A file of the page: its type and text.
    File(&'static str, &'static str),
    World,
    Entities(TableQuery),
    Entity(Entity),
    Despawn(Entity),
    Edit {
        entity: Entity,
        component: String,
        value: serde_json::Value,
    },
    Schedule,
    Systems,
    Events,
    Control,
    Pause,
    Resume,
    Step,
}

/// One page of the entity table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TableQuery {
    /// Component names every row holds.
    pub(crate) with: Vec<String>,
    /// Component names no row holds.
    pub(crate) without: Vec<String>,
    pub(crate) page: usize,
    pub(crate) per_page: usize,
}

const DEFAULT_PER_PAGE: usize = 50;

impl Route {
    /// Whether the route changes the world or the game's pace.
    pub(crate) fn writes(&self) -> bool {
        matches!(
            self,
            Route::Despawn(_) | Route::Edit { .. } | Route::Pause | Route::Resume | Route::Step
        )
    }

    /// The route `request` asks for, or the 4xx that says why none.
    pub(crate) fn parse(request: &Request, max_page: usize) -> Result<Route, Response> {
        let path = percent_decode(&request.path)?;
        let segments: Vec<&str> = path.trim_end_matches('/').split('/').skip(1).collect();
        let method = request.method;
        let get = matches!(method, Method::Get | Method::Head);
        let no_query = || {
            if request.query.is_empty() {
                Ok(())
            } else {
                Err(Response::error(
                    400,
                    format!("{path} takes no query parameters"),
                ))
            }
        };
        let only_get = |route: Route| {
            no_query()?;
            if get {
                Ok(route)
            } else {
                Err(Response::method_not_allowed("GET, HEAD"))
            }
        };
        let only_post = |route: Route| {
            no_query()?;
            if method == Method::Post {
                Ok(route)
            } else {
                Err(Response::method_not_allowed("POST"))
            }
        };
        match segments.as_slice() {
            [] | [""] | ["index.html"] => {
                only_get(Route::File("text/html; charset=utf-8", page::INDEX_HTML))
            }
            ["inspector.js"] => {
                only_get(Route::File("text/javascript; charset=utf-8", page::SCRIPT))
            }
            ["inspector.css"] => only_get(Route::File("text/css; charset=utf-8", page::STYLE)),
            ["api", "world"] => only_get(Route::World),
            ["api", "schedule"] => only_get(Route::Schedule),
            ["api", "systems"] => only_get(Route::Systems),
            ["api", "events"] => only_get(Route::Events),
            ["api", "control"] => only_get(Route::Control),
            ["api", "pause"] => only_post(Route::Pause),
            ["api", "resume"] => only_post(Route::Resume),
            ["api", "step"] => only_post(Route::Step),
            ["api", "entities"] => {
                if !get {
                    return Err(Response::method_not_allowed("GET, HEAD"));
                }
                Ok(Route::Entities(TableQuery::parse(
                    &request.query,
                    max_page,
                )?))
            }
            ["api", "entities", id] => {
                no_query()?;
                let entity = parse_entity(id)?;
                match method {
                    Method::Get | Method::Head => Ok(Route::Entity(entity)),
                    Method::Delete => Ok(Route::Despawn(entity)),
                    _ => Err(Response::method_not_allowed("GET, HEAD, DELETE")),
                }
            }
            ["api", "entities", id, "components", name] => {
                no_query()?;
                let entity = parse_entity(id)?;
                if method != Method::Put {
                    return Err(Response::method_not_allowed("PUT"));
                }
                let value = serde_json::from_slice(&request.body).map_err(|e| {
                    Response::error(400, format!("the body is not the component as JSON: {e}"))
                })?;
                Ok(Route::Edit {
                    entity,
                    component: (*name).to_owned(),
                    value,
                })
            }
            _ => Err(Response::error(
                404,
                format!(
                    "nothing at `{}`: the page is at / and the endpoints under /api/ (docs/guide/inspector.md lists them)",
                    crate::http::truncate(&path)
                ),
            )),
        }
    }
}

impl TableQuery {
    /// `with=A,B&without=C&page=0&per_page=50`, each part optional.
    fn parse(query: &str, max_page: usize) -> Result<Self, Response> {
        let mut table = TableQuery {
            with: Vec::new(),
            without: Vec::new(),
            page: 0,
            per_page: DEFAULT_PER_PAGE.min(max_page),
        };
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            let value = percent_decode(value)?;
            let names = || {
                value
                    .split(',')
                    .map(str::trim)
                    .filter(|n| !n.is_empty())
                    .map(str::to_owned)
            };
            match key {
                "with" => table.with.extend(names()),
                "without" => table.without.extend(names()),
                "page" => table.page = number(key, &value, 0..=u32::MAX as usize)?,
                "per_page" => table.per_page = number(key, &value, 1..=max_page)?,
                other => {
                    return Err(Response::error(
                        400,
                        format!(
                            "unknown parameter `{}`: the table takes with, without, page and per_page",
                            crate::http::truncate(other)
                        ),
                    ));
                }
            }
        }
        Ok(table)
    }
}

fn number(
    key: &str,
    value: &str,
    range: core::ops::RangeInclusive<usize>,
) -> Result<usize, Response> {
    value
        .parse::<usize>()
        .ok()
        .filter(|n| range.contains(n))
        .ok_or_else(|| {
            Response::error(
                400,
                format!(
                    "`{key}` must be a whole number from {} to {}, not `{}`",
                    range.start(),
                    range.end(),
                    crate::http::truncate(value)
                ),
            )
        })
}

/// An entity id as the world prints it, `5v2` (index, `v`, version).
pub(crate) fn parse_entity(text: &str) -> Result<Entity, Response> {
    let bad = || {
        Response::error(
            400,
            format!(
                "`{}` is not an entity id: write it as the world prints it, index v version, e.g. 5v2",
                crate::http::truncate(text)
            ),
        )
    };
    let (index, version) = text.split_once('v').ok_or_else(bad)?;
    let index: u32 = index.parse().map_err(|_| bad())?;
    let version: u32 = version.parse().map_err(|_| bad())?;
    Entity::from_bits((u64::from(version) << 32) | u64::from(index)).ok_or_else(bad)
}

/// `%XX` escapes decoded (and `+` as a space, as forms send it); the result
/// must be UTF-8.
fn percent_decode(text: &str) -> Result<String, Response> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = bytes
                    .get(i + 1..i + 3)
                    .and_then(|h| core::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(|| {
                        Response::error(400, "a `%` escape in the address is malformed")
                    })?;
                out.push(hex);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out)
        .map_err(|_| Response::error(400, "the address is not UTF-8 once decoded"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(method: Method, target: &str, body: &str) -> Request {
        let (path, query) = target.split_once('?').unwrap_or((target, ""));
        Request {
            method,
            path: path.into(),
            query: query.into(),
            headers: Vec::new(),
            body: body.as_bytes().to_vec(),
        }
    }

    fn parse(method: Method, target: &str) -> Result<Route, u16> {
        Route::parse(&request(method, target, ""), 500).map_err(|r| r.status)
    }

    #[test]
    fn entity_ids_read_as_the_world_prints_them() {
        let e = parse_entity("5v2").unwrap();
        assert_eq!((e.index(), e.version()), (5, 2));
        for bad in ["5", "v2", "5v0", "5v2v", "-1v1", "99999999999v1", ""] {
            assert_eq!(parse_entity(bad).unwrap_err().status, 400, "{bad}");
        }
    }

    #[test]
    fn the_table_query_reads_filters_and_pages() {
        let route = parse(
            Method::Get,
            "/api/entities?with=Position,Health%3Cf32%3E&without=Frozen&page=2&per_page=10",
        );
        let Ok(Route::Entities(table)) = route else {
            panic!("{route:?}")
        };
        assert_eq!(table.with, ["Position", "Health<f32>"]);
        assert_eq!(table.without, ["Frozen"]);
        assert_eq!((table.page, table.per_page), (2, 10));
        assert_eq!(parse(Method::Get, "/api/entities?per_page=501"), Err(400));
        assert_eq!(parse(Method::Get, "/api/entities?per_page=0"), Err(400));
        assert_eq!(parse(Method::Get, "/api/entities?colour=red"), Err(400));
        assert_eq!(parse(Method::Get, "/api/entities?with=%zz"), Err(400));
    }

    #[test]
    fn methods_and_paths_are_checked() {
        assert_eq!(
            parse(Method::Get, "/"),
            Ok(Route::File("text/html; charset=utf-8", page::INDEX_HTML))
        );
        assert_eq!(parse(Method::Post, "/api/world"), Err(405));
        assert_eq!(parse(Method::Get, "/api/pause"), Err(405));
        assert_eq!(parse(Method::Get, "/api/nothing"), Err(404));
        assert_eq!(parse(Method::Get, "/api/world?x=1"), Err(400));
        assert_eq!(
            parse(Method::Delete, "/api/entities/3v1"),
            Ok(Route::Despawn(parse_entity("3v1").unwrap()))
        );
        let edit = Route::parse(
            &request(
                Method::Put,
                "/api/entities/3v1/components/Position",
                "{\"x\":1}",
            ),
            500,
        );
        assert!(matches!(edit, Ok(Route::Edit { ref component, .. }) if component == "Position"));
        let broken = Route::parse(
            &request(Method::Put, "/api/entities/3v1/components/Position", "{x"),
            500,
        );
        assert_eq!(broken.unwrap_err().status, 400);
    }
}
