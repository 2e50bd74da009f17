//! A short tour of the ecs, printed as a tutorial: spawning, commands and an
//! observer, inspecting entities, a despawned entity's error, events between
//! systems and change detection. The tour's code is `examples/src/tour/`,
//! where a test checks what it prints.

#![forbid(unsafe_code)]

fn main() -> Result<(), ecs_core::Error> {
    print!("{}", examples::tour::tour()?);
    Ok(())
}
