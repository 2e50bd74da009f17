//! The systems of a frame: the player and the guards walk (`Update`), then
//! what the player stepped on takes effect (`PostUpdate`), then doors whose
//! switch is pressed open (`Last`, once the presses have applied).

use ecs_core::prelude::*;

use super::journal::{DOOR_POINTS, SPOTTED_PENALTY};
use super::{
    Alerted, Coin, Door, Exit, Happening, Journal, LevelRoot, Open, Patrol, Player, Pos, Pressed,
    Score, Switch,
};

/// Switches not pressed yet.
type Unpressed = (With<Switch>, Without<Pressed>);
/// Guards that have not spotted the player yet.
type Unalerted = (With<Patrol>, Without<Alerted>);

/// Adds this frame's systems to `schedule`.
///
/// ```
/// use ecs_core::prelude::*;
///
/// let mut schedule = Schedule::new();
/// examples::streaming::systems::add_to(&mut schedule)?;
/// # Ok::<(), Error>(())
/// ```
pub fn add_to(schedule: &mut Schedule) -> Result<(), Error> {
    schedule.add_system(Stage::Update, walk)?;
    schedule.add_system(Stage::Update, patrol)?;
    schedule.add_system(Stage::PostUpdate, press_switches)?;
    schedule.add_system(Stage::PostUpdate, pick_coins)?;
    schedule.add_system(Stage::PostUpdate, spot)?;
    schedule.add_system(Stage::Last, open_doors)?;
    Ok(())
}

/// The player walks one tile toward the next stop of the level's tour; on
/// the last stop, the exit, the level is done.
pub fn walk(
    mut roots: Query<&mut LevelRoot>,
    player: Query<Entity, With<Player>>,
    exits: Query<Entity, With<Exit>>,
    mut positions: Query<&mut Pos>,
    mut journal: ResMut<Journal>,
) {
    let (Ok(root), Ok(player)) = (roots.single_mut(), player.single()) else {
        return; // between levels
    };
    let Some(&stop) = root.tour.get(root.next) else {
        return; // the exit is reached; the game loads the next level
    };
    let Ok(&target) = positions.get(stop) else {
        return;
    };
    let Ok(pos) = positions.get_mut(player) else {
        return;
    };
    pos.step_toward(target);
    if *pos == target {
        root.next += 1;
        if exits.contains(stop) {
            journal.0.push(Happening::ExitReached {
                number: root.number,
            });
        }
    }
}

/// Each guard walks one tile toward its next waypoint, and on to the one
/// after when it gets there.
pub fn patrol(mut guards: Query<(Entity, &mut Patrol)>, mut positions: Query<&mut Pos>) {
    for (guard, patrol) in guards.iter_mut() {
        let Ok(&target) = positions.get(patrol.route[patrol.next]) else {
            continue;
        };
        let Ok(pos) = positions.get_mut(guard) else {
            continue;
        };
        pos.step_toward(target);
        if *pos == target {
            patrol.next = (patrol.next + 1) % patrol.route.len();
        }
    }
}

/// A switch under the player is pressed; its doors open in `Last`, once the
/// command has applied.
pub fn press_switches(
    player: Query<&Pos, With<Player>>,
    switches: Query<(Entity, &Pos), Unpressed>,
    mut commands: Commands,
) {
    let Ok(&at) = player.single() else { return };
    for (switch, &pos) in switches.iter() {
        if pos == at {
            commands.insert(switch, Pressed);
        }
    }
}

/// Coins under the player go to the score.
pub fn pick_coins(
    player: Query<&Pos, With<Player>>,
    coins: Query<(Entity, &Coin, &Pos)>,
    mut score: Query<&mut Score>,
    mut commands: Commands,
    mut journal: ResMut<Journal>,
) {
    let (Ok(&at), Ok(score)) = (player.single(), score.single_mut()) else {
        return;
    };
    for (coin, &Coin(value), &pos) in coins.iter() {
        if pos == at {
            score.0 += value;
            commands.despawn(coin);
            journal.0.push(Happening::CoinPicked {
                value,
                score: score.0,
            });
        }
    }
}

/// A guard on the player's tile costs points, once per guard.
pub fn spot(
    player: Query<&Pos, With<Player>>,
    guards: Query<(Entity, &Pos), Unalerted>,
    mut score: Query<&mut Score>,
    mut commands: Commands,
    mut journal: ResMut<Journal>,
) {
    let (Ok(&at), Ok(score)) = (player.single(), score.single_mut()) else {
        return;
    };
    for (guard, &pos) in guards.iter() {
        if pos == at {
            score.0 = score.0.saturating_sub(SPOTTED_PENALTY);
            commands.insert(guard, Alerted);
            journal.0.push(Happening::Spotted {
                guard,
                score: score.0,
            });
        }
    }
}

/// A closed door whose switch is pressed opens.
pub fn open_doors(
    doors: Query<(Entity, &Door), Without<Open>>,
    pressed: Query<Entity, With<Pressed>>,
    mut score: Query<&mut Score>,
    mut commands: Commands,
    mut journal: ResMut<Journal>,
) {
    let Ok(score) = score.single_mut() else {
        return;
    };
    for (door, &Door { switch }) in doors.iter() {
        let Some(switch) = switch.filter(|&s| pressed.contains(s)) else {
            continue;
        };
        score.0 += DOOR_POINTS;
        commands.insert(door, Open);
        journal.0.push(Happening::DoorOpened {
            door,
            switch,
            score: score.0,
        });
    }
}
