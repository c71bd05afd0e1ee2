! A module with declare-target variables and a declare-target procedure.
module physics
  implicit none
  real(8) :: damping = 0.5d0
  integer :: calls = 0
  !$omp declare target(damping, calls)
contains
  real(8) function step(v)
    !$omp declare target
    real(8), intent(in) :: v
    step = v * damping + 1.0d0
  end function step
end module physics
